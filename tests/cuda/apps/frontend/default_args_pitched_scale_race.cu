// A pitched-image scale in SDK-helper style: device helpers take the row pitch and the scale
// as default arguments (`int pitch = PITCH`, `float s = 0.5f`) that most call sites leave out.
// One block per row, one thread per column. The bug: the helper's default pitch is half the
// row width (a stale value from a half-width build), so consecutive rows overlap in dst.
#include <cuda_runtime.h>
#include <cstdio>

#define WIDTH 256
#define PITCH 256
#define HEIGHT 512

__device__ __forceinline__ int pixelIndex(int row, int col, int pitch = PITCH / 2)
{
    return row * pitch + col;
}

__device__ __forceinline__ float scaled(float v, float s = 0.5f)
{
    return v * s;
}

__global__ void scaleImage(const float *src, float *dst)
{
    int row = blockIdx.x;
    int col = threadIdx.x;
    int at = pixelIndex(row, col);
    dst[at] = scaled(src[at]);
}

int main()
{
    float *src, *dst;
    cudaMalloc(&src, HEIGHT * PITCH * sizeof(float));
    cudaMalloc(&dst, HEIGHT * PITCH * sizeof(float));
    dim3 block(WIDTH);
    dim3 grid(HEIGHT);
    scaleImage<<<grid, block>>>(src, dst);
    cudaDeviceSynchronize();
    printf("scaled\n");
    return 0;
}
