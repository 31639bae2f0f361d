// Variant of halves_stats.cu: no barrier between the steps of the tree.
// Per-block first and second moments of a signal: the first pass of a two-pass mean/variance
// (BatchNorm statistics, image normalization). Block b reduces the chunk x[b*1024 .. b*1024+1023].
//
// The block is split in two halves that never wait for each other: warps 0-3 accumulate the
// sum of the chunk, warps 4-7 the sum of squares of the same chunk. Each half reduces its 128
// partial results in its own shared array and synchronizes only its own four warps, through a
// PTX named barrier (barrier 0 belongs to __syncthreads(); the halves use 1 and 2).
// The host finishes mean and variance from the per-block results.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define BLOCK_THREADS 256
#define HALF_THREADS 128
#define ITEMS_PER_THREAD 8
#define CHUNK (HALF_THREADS * ITEMS_PER_THREAD) // 1024 samples per block
#define NUM_BLOCKS 512

#define SUM_BARRIER 1
#define SUMSQ_BARRIER 2

// Thin wrappers over the PTX barrier instructions; `id` and `nthreads` are always constants.
struct NamedBarrier {
    static __device__ __forceinline__ void sync(int id, int nthreads)
    {
        asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(nthreads) : "memory");
    }
    static __device__ __forceinline__ void arrive(int id, int nthreads)
    {
        asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(nthreads) : "memory");
    }
};

// Tree reduction of one value per thread over the HALF_THREADS threads of one half of the
// block. Every thread of the half must call it; every caller gets the total.
template <int BAR_ID>
__device__ float halfBlockReduce(float *sdata, float v, int lt)
{
    sdata[lt] = v;
    NamedBarrier::sync(BAR_ID, HALF_THREADS);
    for (int s = HALF_THREADS / 2; s > 0; s >>= 1) {
        if (lt < s)
            sdata[lt] += sdata[lt + s];
    }
    return sdata[0];
}

__global__ void __launch_bounds__(BLOCK_THREADS)
chunkMoments(const float *__restrict__ x, float *__restrict__ blockSum, float *__restrict__ blockSumSq)
{
    __shared__ float sSum[HALF_THREADS];
    __shared__ float sSumSq[HALF_THREADS];

    const int warp = threadIdx.x / 32;
    const int lt = threadIdx.x % HALF_THREADS; // rank within the half
    const float *chunk = x + (size_t)blockIdx.x * CHUNK;

    if (warp < 4) {
        float acc = 0.0f;
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
            acc += chunk[i * HALF_THREADS + lt];
        const float total = halfBlockReduce<SUM_BARRIER>(sSum, acc, lt);
        if (lt == 0)
            blockSum[blockIdx.x] = total;
    } else {
        float acc = 0.0f;
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            const float v = chunk[i * HALF_THREADS + lt];
            acc += v * v;
        }
        const float total = halfBlockReduce<SUMSQ_BARRIER>(sSumSq, acc, lt);
        if (lt == 0)
            blockSumSq[blockIdx.x] = total;
    }
}

int main(int argc, char **argv)
{
    const int n = NUM_BLOCKS * CHUNK;
    float *h_x = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i)
        h_x[i] = (float)((i * 7919) % 1000) / 500.0f - 1.0f;

    float *d_x, *d_sum, *d_sumsq;
    cudaMalloc((void **)&d_x, n * sizeof(float));
    cudaMalloc((void **)&d_sum, NUM_BLOCKS * sizeof(float));
    cudaMalloc((void **)&d_sumsq, NUM_BLOCKS * sizeof(float));
    cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);

    dim3 grid(NUM_BLOCKS);
    dim3 block(BLOCK_THREADS);
    chunkMoments<<<grid, block>>>(d_x, d_sum, d_sumsq);
    cudaDeviceSynchronize();

    float *h_sum = (float *)malloc(NUM_BLOCKS * sizeof(float));
    float *h_sumsq = (float *)malloc(NUM_BLOCKS * sizeof(float));
    cudaMemcpy(h_sum, d_sum, NUM_BLOCKS * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_sumsq, d_sumsq, NUM_BLOCKS * sizeof(float), cudaMemcpyDeviceToHost);

    double s = 0.0, s2 = 0.0;
    for (int b = 0; b < NUM_BLOCKS; ++b) {
        s += h_sum[b];
        s2 += h_sumsq[b];
    }
    const double mean = s / n;
    printf("mean = %f, variance = %f\n", mean, s2 / n - mean * mean);

    cudaFree(d_x);
    cudaFree(d_sum);
    cudaFree(d_sumsq);
    free(h_x);
    free(h_sum);
    free(h_sumsq);
    return 0;
}
