// A dot product with cooperative groups in the style of the CUDA programming guide: each block
// is split into 32-thread tiles (`cg::tiled_partition<32>`), every tile reduces its partial
// products with `tile.shfl_down`, tile leaders store their sums in shared memory and the first
// tile combines them. The bug: the tiles synchronize only themselves (`tile.sync()`), not the
// block, so the first tile reads the other tiles' slots before they are stored.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>

namespace cg = cooperative_groups;

#define BLOCK 256

__device__ float tileSum(cg::thread_block_tile<32> tile, float v)
{
    for (int off = tile.size() / 2; off > 0; off /= 2)
        v += tile.shfl_down(v, off);
    return v;
}

__global__ void dotProduct(const float *a, const float *b, float *result, int n)
{
    __shared__ float partial[BLOCK / 32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = blockIdx.x * BLOCK + threadIdx.x;
    float v = i < n ? a[i] * b[i] : 0.0f;
    v = tileSum(tile, v);
    if (tile.thread_rank() == 0)
        partial[threadIdx.x / 32] = v;
    tile.sync();
    if (threadIdx.x < 32) {
        float w = threadIdx.x < BLOCK / 32 ? partial[threadIdx.x] : 0.0f;
        w = tileSum(tile, w);
        if (threadIdx.x == 0)
            atomicAdd(result, w);
    }
}

int main()
{
    const int n = 1 << 20;
    float *a, *b, *result;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&result, sizeof(float));
    cudaMemset(result, 0, sizeof(float));
    dim3 block(BLOCK);
    dim3 grid(n / BLOCK);
    dotProduct<<<grid, block>>>(a, b, result, n);
    float h;
    cudaMemcpy(&h, result, sizeof(float), cudaMemcpyDeviceToHost);
    printf("dot = %f\n", h);
    return 0;
}
