// 256-bin byte histogram: per-block bins in shared memory (zeroed, filled with shared atomics
// over a grid-stride loop), then merged into the global histogram with one atomic per bin.
#include <cuda_runtime.h>
#include <cstdio>

#define N (1 << 24)
#define BINS 256
#define BLOCK 256
#define GRID 240

__global__ void histogramShared(const unsigned char *__restrict__ data, unsigned int *__restrict__ hist)
{
    __shared__ unsigned int sHist[BINS];
    const int tid = threadIdx.x;

    sHist[tid] = 0;
    __syncthreads();

    for (int i = blockIdx.x * BLOCK + tid; i < N; i += GRID * BLOCK)
        atomicAdd(&sHist[data[i]], 1u);
    __syncthreads();

    atomicAdd(&hist[tid], sHist[tid]);
}

int main()
{
    unsigned char *d_data;
    unsigned int *d_hist;
    cudaMalloc(&d_data, N);
    cudaMalloc(&d_hist, BINS * sizeof(unsigned int));
    cudaMemset(d_data, 0, N);
    cudaMemset(d_hist, 0, BINS * sizeof(unsigned int));
    histogramShared<<<GRID, BLOCK>>>(d_data, d_hist);
    cudaDeviceSynchronize();
    printf("histogram_shared done\n");
    cudaFree(d_data);
    cudaFree(d_hist);
    return 0;
}
