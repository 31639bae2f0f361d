// 2-D shifted copy through a shared tile (image-processing style): each thread stores its pixel
// one column to the right, and the first column of every row is cleared. The tile lacks the
// extra column, so the last thread of a row stores into the next row's first cell.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

__global__ void shift_right(const float *img, float *out, int width)
{
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE + tx;
    int y = blockIdx.y * TILE + ty;
    tile[ty][tx + 1] = img[y * width + x];
    if (tx == 0)
        tile[ty][0] = 0.0f;
    __syncthreads();
    out[y * width + x] = tile[ty][tx];
}

int main()
{
    const int width = 1024, height = 1024;
    float *img, *out;
    cudaMalloc(&img, width * height * sizeof(float));
    cudaMalloc(&out, width * height * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid(width / TILE, height / TILE);
    shift_right<<<grid, block>>>(img, out, width);
    cudaDeviceSynchronize();
    return 0;
}
