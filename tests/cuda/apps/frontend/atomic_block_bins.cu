// Per-block statistics with block-scoped atomics (sm_60+): threads of one block count into a
// shared histogram and into their block's own slot of a global counter array with
// atomicAdd_block, which is cheaper than a device-wide atomic and enough because no other block
// touches those words. One thread per block then publishes the block's histogram row.
#include <cstdio>
#include <cuda_runtime.h>

#define BINS 32
#define THREADS 128

__global__ void block_stats(const int *keys, int n, unsigned *rows, unsigned *block_hits)
{
    __shared__ unsigned bins[BINS];
    if (threadIdx.x < BINS)
        bins[threadIdx.x] = 0;
    __syncthreads();

    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int key = keys[i];
        atomicAdd_block(&bins[key & (BINS - 1)], 1u);
        if (key < 0)
            atomicAdd_block(&block_hits[blockIdx.x], 1u);
    }
    __syncthreads();

    if (threadIdx.x < BINS)
        rows[blockIdx.x * BINS + threadIdx.x] = bins[threadIdx.x];
}

int main()
{
    const int n = 1 << 20;
    dim3 block(THREADS);
    dim3 grid((n + THREADS - 1) / THREADS);
    int *keys;
    unsigned *rows, *hits;
    cudaMalloc(&keys, n * sizeof(int));
    cudaMalloc(&rows, grid.x * BINS * sizeof(unsigned));
    cudaMalloc(&hits, grid.x * sizeof(unsigned));
    cudaMemset(hits, 0, grid.x * sizeof(unsigned));
    block_stats<<<grid, block>>>(keys, n, rows, hits);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(keys);
    cudaFree(rows);
    cudaFree(hits);
    return 0;
}
