// A block reduction written with cooperative groups' free functions: the file synchronizes
// with `cg::sync(block)`, so the barriers `fix` adds are written the same way.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define BLOCK 128

__global__ void blockTotals(const float *values, float *totals)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ float acc[BLOCK];
    unsigned int t = block.thread_rank();

    acc[t] = values[blockIdx.x * BLOCK + t];
    cg::sync(block);

    for (unsigned int stride = BLOCK / 2; stride > 0; stride /= 2) {
        cg::sync(block);
        if (t < stride)
            acc[t] += acc[t + stride];
    }
    if (t == 0)
        totals[blockIdx.x] = acc[0];
}

int main()
{
    const int blocks = 4096;
    float *d_values, *d_totals;
    cudaMalloc(&d_values, blocks * BLOCK * sizeof(float));
    cudaMalloc(&d_totals, blocks * sizeof(float));
    blockTotals<<<blocks, BLOCK>>>(d_values, d_totals);
    cudaDeviceSynchronize();
    return 0;
}
