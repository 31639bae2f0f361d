//--blockDim=[16,16] --gridDim=[8,8]
// 2-D convolution with a 5x5 mask (radius 2): each block computes a 16x16 output tile. The input
// tile with a 2-pixel apron (20x20, zero outside the image) and the 25 mask coefficients are staged
// in shared memory, then each thread computes one output pixel.
// The image size is fixed by the launch geometry: 8x8 blocks of 16x16 pixels.
#define WIDTH 128
#define HEIGHT 128
__global__ void tiled_conv2d(float *out, const float *in, const float *mask)
{
    __shared__ float tile[20][20];
    __shared__ float m[5][5];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int lin = ty * 16 + tx;
    int x0 = (int)blockIdx.x * 16;
    int y0 = (int)blockIdx.y * 16;
    for (int k = lin; k < 400; k += 256) {
        int ly = k / 20;
        int lx = k % 20;
        int gx = x0 + lx - 2;
        int gy = y0 + ly - 2;
        if (gx >= 0 && gx < WIDTH && gy >= 0 && gy < HEIGHT) {
            tile[ly][lx] = in[gy * WIDTH + gx];
        } else {
            tile[ly][lx] = 0.0f;
        }
    }
    if (lin < 25) {
        m[lin / 5][lin % 5] = mask[lin];
    }
    __syncthreads();
    float sum = 0.0f;
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 5; j++) {
            sum += m[i][j] * tile[ty + i][tx + j];
        }
    }
    if (x0 + tx < WIDTH && y0 + ty < HEIGHT) {
        out[(y0 + ty) * WIDTH + x0 + tx] = sum;
    }
}
