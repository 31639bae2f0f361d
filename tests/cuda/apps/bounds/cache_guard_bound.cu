// Block-wide sum with a shared cache (SDK-sample style): the cache holds 128 partial sums, the
// host launches 256 threads per block, and the guard keeps the second half of the block out.
#include <cstdio>
#include <cuda_runtime.h>

#define CACHE 128
#define THREADS 256

__global__ void block_sum(const float *x, float *sums, int n)
{
    __shared__ float cache[CACHE];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    if (t < CACHE)
        cache[t] = g < n ? x[g] + x[g + CACHE] : 0.0f;
    __syncthreads();
    if (t == 0) {
        float s = 0.0f;
        for (int i = 0; i < CACHE; i++)
            s += cache[i];
        sums[blockIdx.x] = s;
    }
}

int main()
{
    const int n = 1 << 16;
    float *x, *sums;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&sums, (n / THREADS) * sizeof(float));
    block_sum<<<n / THREADS, THREADS>>>(x, sums, n);
    cudaDeviceSynchronize();
    return 0;
}
