// A 3x3 box blur of an image through a shared tile, the way image-processing code writes it:
// every load sits under the bounds check `if (x < width && y < height)`. The file launches it on a
// 1024x768 image with 16x16 blocks, so every thread of a block passes the check — but only
// because of those sizes. `fix` puts the barrier after the `if`, where it stays correct for any
// image size, not inside it, where it would diverge once the size is not a multiple of 16.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

__global__ void box_blur(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height) {
        tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    }
    __syncthreads();
    float sum = 0.0f;
    int n = 0;
    for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
            int ty = (int)threadIdx.y + dy, tx = (int)threadIdx.x + dx;
            if (ty >= 0 && ty < TILE && tx >= 0 && tx < TILE) {
                sum += tile[ty][tx];
                n++;
            }
        }
    }
    if (x < width && y < height)
        out[y * width + x] = sum / n;
}

int main()
{
    const int width = 1024, height = 768;
    float *in, *out;
    cudaMalloc(&in, width * height * sizeof(float));
    cudaMalloc(&out, width * height * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid(width / TILE, height / TILE);
    box_blur<<<grid, block>>>(in, out, width, height);
    cudaDeviceSynchronize();
    printf("blurred %dx%d\n", width, height);
    return 0;
}
