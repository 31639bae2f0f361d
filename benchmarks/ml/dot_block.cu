// Dot product x.y: each block reduces a grid-stride slice in shared memory down to 64 partials,
// the first warp finishes with shuffles, and thread 0 adds the block's result atomically.
#include <cuda_runtime.h>
#include <cstdio>

#define N (1 << 24)
#define BLOCK 256
#define GRID 512
#define WARP 32

__global__ void dotBlock(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ result)
{
    __shared__ float sRed[BLOCK];
    const int tid = threadIdx.x;

    float sum = 0.0f;
    for (int i = blockIdx.x * BLOCK + tid; i < N; i += GRID * BLOCK)
        sum += x[i] * y[i];
    sRed[tid] = sum;
    __syncthreads();

    for (int s = BLOCK / 2; s > WARP; s >>= 1) {
        if (tid < s)
            sRed[tid] += sRed[tid + s];
        __syncthreads();
    }
    if (tid < WARP) {
        float v = sRed[tid] + sRed[tid + WARP];
#pragma unroll
        for (int off = WARP / 2; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (tid == 0)
            atomicAdd(result, v);
    }
}

int main()
{
    float *d_x, *d_y, *d_r;
    cudaMalloc(&d_x, N * sizeof(float));
    cudaMalloc(&d_y, N * sizeof(float));
    cudaMalloc(&d_r, sizeof(float));
    cudaMemset(d_x, 0, N * sizeof(float));
    cudaMemset(d_y, 0, N * sizeof(float));
    cudaMemset(d_r, 0, sizeof(float));
    dotBlock<<<GRID, BLOCK>>>(d_x, d_y, d_r);
    cudaDeviceSynchronize();
    printf("dot_block done\n");
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_r);
    return 0;
}
