// Population count of a bit set in CUB/SDK style: each thread loads a word through the
// read-only cache (__ldg), counts its set bits (__popc), the warp sums its counts with
// __shfl_down_sync, lane 0 of every warp stores the warp's total in shared memory and, after a
// barrier, warp 0 adds the block's warp totals. The bug: the block total goes to total[0] with
// a plain read-modify-write from lane 0 of warp 0 of every block, instead of an atomic.
#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 256
#define WARPS (BLOCK / 32)

__device__ __forceinline__ int warpSum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__global__ void popcountBits(const unsigned *__restrict__ words, int n, unsigned long long *total)
{
    __shared__ int warpTotals[WARPS];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    int bits = i < n ? __popc(__ldg(&words[i])) : 0;
    bits = warpSum(bits);
    if (lane == 0)
        warpTotals[warp] = bits;
    __syncthreads();
    if (warp == 0) {
        int v = lane < WARPS ? warpTotals[lane] : 0;
        v = warpSum(v);
        if (lane == 0)
            total[0] += (unsigned long long)v;
    }
}

int main()
{
    const int n = 1 << 22;
    unsigned *words;
    unsigned long long *total;
    cudaMalloc(&words, n * sizeof(unsigned));
    cudaMalloc(&total, sizeof(unsigned long long));
    cudaMemset(total, 0, sizeof(unsigned long long));
    dim3 block(BLOCK);
    dim3 grid((n + BLOCK - 1) / BLOCK);
    popcountBits<<<grid, block>>>(words, n, total);
    unsigned long long h = 0;
    cudaMemcpy(&h, total, sizeof(h), cudaMemcpyDeviceToHost);
    printf("%llu bits set\n", h);
    return 0;
}
