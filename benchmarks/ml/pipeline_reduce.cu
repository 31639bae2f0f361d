// Staged sum reduction with the CUDA pipeline primitives: each block streams tiles of 1024
// floats into shared memory with 16-byte __pipeline_memcpy_async copies (one per thread), and
// each thread then accumulates a column of the tile (elements other threads copied). The block
// partials finish with a shared tree reduction and one atomicAdd.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cstdio>

#define N (1 << 24)
#define BLOCK 256
#define VEC 4
#define TILE_ELEMS (BLOCK * VEC)
#define TILES_PER_BLOCK 16
#define GRID (N / (TILE_ELEMS * TILES_PER_BLOCK))

__global__ void pipelineReduce(const float *__restrict__ in, float *__restrict__ result)
{
    __shared__ __align__(16) float stage[TILE_ELEMS];
    __shared__ float sRed[BLOCK];
    const int tid = threadIdx.x;
    const float *blockIn = in + (size_t)blockIdx.x * TILES_PER_BLOCK * TILE_ELEMS;

    float sum = 0.0f;
    for (int t = 0; t < TILES_PER_BLOCK; ++t) {
        __pipeline_memcpy_async(&stage[tid * VEC], &blockIn[(size_t)t * TILE_ELEMS + tid * VEC], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
#pragma unroll
        for (int j = 0; j < VEC; ++j)
            sum += stage[tid + j * BLOCK];
        __syncthreads();
    }

    sRed[tid] = sum;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            sRed[tid] += sRed[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        atomicAdd(result, sRed[0]);
}

int main()
{
    float *d_in, *d_r;
    cudaMalloc(&d_in, (size_t)N * sizeof(float));
    cudaMalloc(&d_r, sizeof(float));
    cudaMemset(d_in, 0, (size_t)N * sizeof(float));
    cudaMemset(d_r, 0, sizeof(float));
    pipelineReduce<<<GRID, BLOCK>>>(d_in, d_r);
    cudaDeviceSynchronize();
    printf("pipeline_reduce done\n");
    cudaFree(d_in);
    cudaFree(d_r);
    return 0;
}
