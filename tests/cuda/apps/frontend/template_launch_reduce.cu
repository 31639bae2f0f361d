// SDK-style block reduction whose block size is a template parameter, instantiated only by
// the launches of the host code (a switch over the block sizes, no explicit instantiation).
#include <cstdio>
#include <cuda_runtime.h>

template <unsigned int blockSize>
__global__ void reduceSum(const float *g_in, float *g_out, unsigned int n)
{
    __shared__ float sdata[blockSize];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockSize + threadIdx.x;
    sdata[tid] = (i < n) ? g_in[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}

void reduce(int threads, int blocks, const float *d_in, float *d_out, unsigned int n)
{
    dim3 grid(blocks);
    switch (threads) {
    case 256:
        reduceSum<256><<<grid, 256>>>(d_in, d_out, n);
        break;
    case 128:
        reduceSum<128><<<grid, 128>>>(d_in, d_out, n);
        break;
    }
}

int main()
{
    unsigned int n = 1 << 20;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, (n / 128) * sizeof(float));
    reduce(256, n / 256, d_in, d_out, n);
    reduce(128, n / 128, d_in, d_out, n);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
