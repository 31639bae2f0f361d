// Per-warp partial histograms in shared memory (Parboil "histo" style): every block is exactly
// one warp, each lane owns a column of the partial counters, and lane 0 flushes them.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BINS 64

__global__ void histo_warp(const unsigned char *data, unsigned int *hist, int n)
{
    __shared__ unsigned int part[BINS][32];
    int lane = threadIdx.x % 32;
    for (int b = 0; b < BINS; ++b)
        part[b][lane] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        unsigned int bin = data[i] % BINS;
        part[bin][lane] += 1;
    }
    __syncthreads();
    if (lane == 0) {
        for (int b = 0; b < BINS; ++b) {
            unsigned int sum = 0;
            for (int l = 0; l < 32; ++l)
                sum += part[b][l];
            atomicAdd(&hist[b], sum);
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 24;
    unsigned char *d_data;
    unsigned int *d_hist;
    cudaMalloc(&d_data, n);
    cudaMalloc(&d_hist, BINS * sizeof(unsigned int));
    cudaMemset(d_hist, 0, BINS * sizeof(unsigned int));
    int warpsPerGrid = 1024;
    unsigned int threads = 32;
    histo_warp<<<warpsPerGrid, threads>>>(d_data, d_hist, n);
    cudaDeviceSynchronize();
    unsigned int h[BINS];
    cudaMemcpy(h, d_hist, sizeof(h), cudaMemcpyDeviceToHost);
    printf("bin 0: %u\n", h[0]);
    return 0;
}
