// Counting negative keys with a block-scoped atomic on one global counter: atomicAdd_block is
// atomic only among the threads of one block, so blocks that count at the same time can lose
// updates — it needs atomicAdd (device scope) here.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 128

__global__ void count_negative(const int *keys, int n, unsigned *negatives)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && keys[i] < 0)
        atomicAdd_block(negatives, 1u);
}

int main()
{
    const int n = 1 << 20;
    dim3 block(THREADS);
    dim3 grid((n + THREADS - 1) / THREADS);
    int *keys;
    unsigned *negatives;
    cudaMalloc(&keys, n * sizeof(int));
    cudaMalloc(&negatives, sizeof(unsigned));
    cudaMemset(negatives, 0, sizeof(unsigned));
    count_negative<<<grid, block>>>(keys, n, negatives);
    unsigned h = 0;
    cudaMemcpy(&h, negatives, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%u negative keys\n", h);
    cudaFree(keys);
    cudaFree(negatives);
    return 0;
}
