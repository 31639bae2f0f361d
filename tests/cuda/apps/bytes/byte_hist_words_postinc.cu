// 16-bin histogram of the low nibbles of a byte stream (SDK histogram64 style): every thread
// counts into its own byte column of a shared bins[bin][thread] table, then 16 threads each sum
// one bin row, reading the 64 byte counters four at a time as 32-bit words.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 64
#define BINS 16
#define PER_THREAD 128   // < 256: a byte counter cannot overflow
typedef unsigned char uchar;
typedef unsigned int uint;

__global__ void nibble_hist(const uchar *data, uint *hist)
{
    __shared__ uchar bins[BINS * THREADS];   // 1024 bytes
    const int t = threadIdx.x;
    for (int b = 0; b < BINS; ++b)
        bins[b * THREADS + t] = 0;
    const uchar *p = data + blockIdx.x * THREADS * PER_THREAD + t;
    for (int i = 0; i < PER_THREAD; ++i, p += THREADS)
        bins[(*p & 15) * THREADS + t]++;
    __syncthreads();
    if (t < BINS) {
        const uint *row = (const uint *)bins + t * (THREADS / 4);
        uint sum = 0;
        for (int w = 0; w < THREADS / 4; ++w) {
            uint v = *row++;
            sum += (v & 0xff) + ((v >> 8) & 0xff) + ((v >> 16) & 0xff) + (v >> 24);
        }
        atomicAdd(&hist[t], sum);
    }
}

int main()
{
    const int blocks = 2048, n = blocks * THREADS * PER_THREAD;
    uchar *d_data;
    uint *d_hist, h_hist[BINS];
    cudaMalloc(&d_data, n);
    cudaMalloc(&d_hist, BINS * sizeof(uint));
    cudaMemset(d_data, 7, n);
    cudaMemset(d_hist, 0, BINS * sizeof(uint));
    nibble_hist<<<blocks, THREADS>>>(d_data, d_hist);
    cudaMemcpy(h_hist, d_hist, sizeof(h_hist), cudaMemcpyDeviceToHost);
    printf("hist[7] = %u\n", h_hist[7]);
    cudaFree(d_data);
    cudaFree(d_hist);
    return 0;
}
