//--blockDim=[16,4] --gridDim=[4,64]
// Row pass of a separable convolution (radius 8, 17 taps). Each block filters 4 image rows, 64
// pixels of each (4 steps of 16); the 64 pixels plus a 16-pixel halo on both sides (96 pixels per
// row) are first staged in shared memory (out-of-image pixels read as 0), then each thread computes
// 4 outputs of its row.
// The image size is fixed by the launch geometry: 4 strips of 64 columns, 64 strips of 4 rows.
#define WIDTH 256
#define HEIGHT 256
#define PITCH WIDTH
__global__ void convolutionRows(float *dst, const float *src, const float *taps)
{
    __shared__ float tile[4][97];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = (int)blockIdx.y * 4 + ty;
    int left = (int)blockIdx.x * 64 - 16;
    for (int j = 0; j < 6; j++) {
        int col = left + j * 16 + tx;
        if (row < HEIGHT && col >= 0 && col < WIDTH) {
            tile[ty][j * 16 + tx] = src[row * PITCH + col];
        } else {
            tile[ty][j * 16 + tx] = 0.0f;
        }
    }
    __syncthreads();
    for (int j = 1; j < 5; j++) {
        int col = left + j * 16 + tx;
        float sum = 0.0f;
        for (int k = -8; k <= 8; k++) {
            sum += taps[8 - k] * tile[ty][j * 16 + tx + k];
        }
        if (row < HEIGHT && col < WIDTH) {
            dst[row * PITCH + col] = sum;
        }
    }
}
