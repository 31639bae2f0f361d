// Every block's thread 0 bumps one global counter without an atomic: a race between blocks,
// so each thread is written with its block.
#include <cuda_runtime.h>

__global__ void countBlocks(int *counter, float *v)
{
    v[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
    if (threadIdx.x == 0)
        counter[0] = counter[0] + 1;
}

int main()
{
    int *counter;
    float *v;
    cudaMalloc(&counter, sizeof(int));
    cudaMalloc(&v, 256 * 256 * sizeof(float));
    countBlocks<<<256, 256>>>(counter, v);
    cudaDeviceSynchronize();
    return 0;
}
