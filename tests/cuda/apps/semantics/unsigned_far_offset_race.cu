// The signed twin of unsigned_far_offset: `int n = -496`, so `y[i + n + 1]` is y[i - 495] with
// no wrap as signed numbers. Thread i + 495 reads the element thread i stores, in another block
// (495 > 256 threads per block), with nothing ordering them.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 4

__global__ void near_offset(float *y, float *z)
{
    int n = -496;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 1.0f;
    float v = (i >= 495) ? y[i + n + 1] : 0.0f;
    z[i] = v;
}

int main()
{
    float *y, *z;
    cudaMalloc(&y, BLOCKS * THREADS * sizeof(float));
    cudaMalloc(&z, BLOCKS * THREADS * sizeof(float));
    near_offset<<<BLOCKS, THREADS>>>(y, z);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
