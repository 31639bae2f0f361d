// Two launches of one reduction kernel with different block sizes (a large pass and a small
// tail pass), the second one larger than the 256-cell shared buffer the kernel masks its index with.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x & 255] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.0f;
        for (int k = 0; k < blockDim.x; ++k)
            t += s[k];
        out[blockIdx.x] = t;
    }
}

int main()
{
    const int n = 1 << 20;
    float *in, *mid, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&mid, (n / 256) * sizeof(float));
    cudaMalloc(&out, sizeof(float) * 64);
    block_sum<<<n / 256, 256>>>(in, mid, n);
    block_sum<<<8, 512>>>(mid, out, n / 256); // "faster" with bigger blocks
    cudaDeviceSynchronize();
    return 0;
}
