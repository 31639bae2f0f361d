// Variant of reduce_chunk_async.cu: no barrier between cp.async.wait_all and the strided sums.
// Block sum reduction over chunks of 1024 floats, benchmark-suite style: the chunk is staged in
// dynamic shared memory with 8-byte cp.async.ca copies (4 per thread), each thread then adds a
// strided column of the chunk (elements tid + k*128, copied by other threads), and the partial
// sums meet in a shared-memory tree with a barrier after every step. One partial per block.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 128
#define CHUNK 1024                       // floats per block
#define PAIRS_PER_THREAD (CHUNK / 2 / THREADS)

__device__ __forceinline__ void cp_async8(float *smem, const float *gmem)
{
    uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(s), "l"(gmem));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_all;\n" ::); }

__global__ void reduceChunkAsync(const float *__restrict__ in, float *__restrict__ partial)
{
    extern __shared__ __align__(16) float chunk[];   // CHUNK floats, size given at launch
    __shared__ float red[THREADS];

    const int tid = threadIdx.x;
    const float *src = in + (size_t)blockIdx.x * CHUNK;

#pragma unroll
    for (int k = 0; k < PAIRS_PER_THREAD; ++k) {
        const int pair = tid + k * THREADS;   // 0..511
        cp_async8(&chunk[2 * pair], &src[2 * pair]);
    }
    cp_async_commit();
    cp_async_wait_all();

    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < CHUNK / THREADS; ++k)
        acc += chunk[tid + k * THREADS];

    red[tid] = acc;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            red[tid] += red[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = red[0];
}

int main(int argc, char **argv)
{
    const int numBlocks = 8192;
    const size_t n = (size_t)numBlocks * CHUNK;
    float *h_in = (float *)malloc(n * sizeof(float));
    float *h_partial = (float *)malloc(numBlocks * sizeof(float));
    for (size_t i = 0; i < n; ++i)
        h_in[i] = 1.0f;

    float *d_in, *d_partial;
    cudaMalloc((void **)&d_in, n * sizeof(float));
    cudaMalloc((void **)&d_partial, numBlocks * sizeof(float));
    cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);

    dim3 grid(numBlocks);
    dim3 block(THREADS);
    size_t smem = CHUNK * sizeof(float);
    reduceChunkAsync<<<grid, block, smem>>>(d_in, d_partial);
    cudaDeviceSynchronize();

    cudaMemcpy(h_partial, d_partial, numBlocks * sizeof(float), cudaMemcpyDeviceToHost);
    double total = 0.0;
    for (int b = 0; b < numBlocks; ++b)
        total += h_partial[b];
    printf("sum = %.0f (expected %zu)\n", total, n);

    cudaFree(d_in);
    cudaFree(d_partial);
    free(h_in);
    free(h_partial);
    return 0;
}
