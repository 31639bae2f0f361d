#include <cuda_runtime.h>

#define BLOCK 128
#define BLOCKS 32

// Two-pass sum: per-block partials, then one block adds the partials.
__global__ void partials(const float *x, float *part)
{
    __shared__ float s[BLOCK];
    s[threadIdx.x] = x[blockIdx.x * BLOCK + threadIdx.x];
    __syncthreads();
    for (int k = BLOCK / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        part[blockIdx.x] = s[0];
}

__global__ void finish(const float *part, float *total)
{
    __shared__ float s[BLOCKS];
    s[threadIdx.x] = part[threadIdx.x];
    __syncthreads();
    for (int k = BLOCKS / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *total = s[0];
}

int main()
{
    float *x, *part, *total;
    cudaMalloc(&x, BLOCK * BLOCKS * sizeof(float));
    cudaMalloc(&part, BLOCKS * sizeof(float));
    cudaMalloc(&total, sizeof(float));
    partials<<<BLOCKS, BLOCK>>>(x, part);
    finish<<<1, BLOCKS>>>(part, total);
    cudaDeviceSynchronize();
    return 0;
}
