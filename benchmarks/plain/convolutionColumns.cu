//--blockDim=[16,8] --gridDim=[8,8]
// Column pass of a separable convolution (radius 8, 17 taps). Each block filters a strip 16 pixels
// wide and 32 rows tall; the strip plus an 8-row halo above and below (48 rows) is first staged in
// shared memory (out-of-image rows read as 0), then every thread produces 4 outputs of its column.
// The image size is fixed by the launch geometry: 8 strips of 16 columns, 8 strips of 32 rows.
#define WIDTH 128
#define HEIGHT 256
#define PITCH WIDTH
__global__ void convolutionColumns(float *dst, const float *src, const float *taps)
{
    __shared__ float tile[16][49];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = (int)blockIdx.x * 16 + tx;
    int top = (int)blockIdx.y * 32 - 8;
    for (int j = 0; j < 6; j++) {
        int row = top + j * 8 + ty;
        if (col < WIDTH && row >= 0 && row < HEIGHT) {
            tile[tx][j * 8 + ty] = src[row * PITCH + col];
        } else {
            tile[tx][j * 8 + ty] = 0.0f;
        }
    }
    __syncthreads();
    for (int j = 1; j < 5; j++) {
        int row = top + j * 8 + ty;
        float sum = 0.0f;
        for (int k = -8; k <= 8; k++) {
            sum += taps[8 - k] * tile[tx][j * 8 + ty + k];
        }
        if (col < WIDTH && row < HEIGHT) {
            dst[row * PITCH + col] = sum;
        }
    }
}
