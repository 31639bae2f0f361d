// Benchmark sweep over block sizes (the kind of loop tuning scripts add): the reduction
// kernel was written for at most 256 threads but the sweep goes up to 512.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x & 255] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    const int n = 1 << 22;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    for (int threads = 64; threads <= 512; threads *= 2) {
        int blocks = (n + threads - 1) / threads;
        block_sum<<<blocks, threads>>>(in, out, n);
        cudaDeviceSynchronize();
    }
    return 0;
}
