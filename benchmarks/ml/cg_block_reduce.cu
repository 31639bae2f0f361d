// Block sum reduction written with cooperative groups: the thread block handle provides the
// thread rank and block.sync() replaces __syncthreads() around a shared tree reduction; each
// block writes its partial sum.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

#define N (1 << 22)
#define BLOCK 256
#define ITEMS 4
#define GRID (N / (BLOCK * ITEMS))

__global__ void cgBlockReduce(const float *__restrict__ in, float *__restrict__ partials)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ float sData[BLOCK];
    const unsigned int t = block.thread_rank();
    const float *chunk = in + (size_t)blockIdx.x * BLOCK * ITEMS;

    float v = 0.0f;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
        v += chunk[i * BLOCK + t];
    sData[t] = v;
    block.sync();

    for (unsigned int s = BLOCK / 2; s > 0; s >>= 1) {
        if (t < s)
            sData[t] += sData[t + s];
        block.sync();
    }
    if (t == 0)
        partials[blockIdx.x] = sData[0];
}

int main()
{
    float *d_in, *d_part;
    cudaMalloc(&d_in, N * sizeof(float));
    cudaMalloc(&d_part, GRID * sizeof(float));
    cudaMemset(d_in, 0, N * sizeof(float));
    cgBlockReduce<<<GRID, BLOCK>>>(d_in, d_part);
    cudaDeviceSynchronize();
    printf("cg_block_reduce done\n");
    cudaFree(d_in);
    cudaFree(d_part);
    return 0;
}
