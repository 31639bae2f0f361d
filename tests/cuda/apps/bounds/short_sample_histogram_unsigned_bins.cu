// short_sample_histogram binned as if the samples were never negative: `v >> 9` gives the 64
// bins of 0..32767, but the host's samples are signed and half of them negative; a negative
// sample's bin is -64..-1, before the shared histogram.
#include <cstdio>
#include <cuda_runtime.h>

#define BINS 64
#define THREADS 256
#define BLOCKS 8

__global__ void sample_hist(const short *samples, unsigned *hist, int n)
{
    __shared__ unsigned bins[BINS];
    if (threadIdx.x < BINS)
        bins[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        short v = samples[i];
        atomicAdd(&bins[v >> 9], 1u);
    }
    __syncthreads();
    if (threadIdx.x < BINS)
        atomicAdd(&hist[threadIdx.x], bins[threadIdx.x]);
}

int main()
{
    const int n = 1 << 16;
    short *h = new short[n];
    for (int i = 0; i < n; i++)
        h[i] = (short)((i * 37) % 65536 - 32768);
    short *samples;
    unsigned *hist;
    cudaMalloc(&samples, n * sizeof(short));
    cudaMalloc(&hist, BINS * sizeof(unsigned));
    cudaMemcpy(samples, h, n * sizeof(short), cudaMemcpyHostToDevice);
    cudaMemset(hist, 0, BINS * sizeof(unsigned));
    sample_hist<<<BLOCKS, THREADS>>>(samples, hist, n);
    cudaDeviceSynchronize();
    delete[] h;
    printf("done\n");
    return 0;
}
