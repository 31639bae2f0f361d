// Variant of ws_histogram.cu: the bin owners only arrive on the counting-done barrier.
// Byte histogram (256 bins) with a privatized shared-memory histogram per block, split into
// two warp roles so that the per-block bookkeeping overlaps the counting:
//   warps 0-5 (192 threads) count: shared-memory atomics over the block's 6144 input bytes;
//   warps 6-7 (64 threads) own the bins: they clear them before the count and merge them into
//   the global histogram after it (4 bins per thread).
// The roles meet only at two named barriers of all 256 threads (PTX `barrier.*` spelling):
//   barrier 2: bins cleared   (bin owners arrive, counters sync)
//   barrier 1: counting done  (counters arrive, bin owners sync)
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define NUM_BINS 256
#define COUNT_WARPS 6
#define OWNER_WARPS 2
#define BLOCK_THREADS (32 * (COUNT_WARPS + OWNER_WARPS))
#define COUNT_THREADS (32 * COUNT_WARPS)
#define OWNER_THREADS (32 * OWNER_WARPS)
#define ITEMS_PER_BLOCK (COUNT_THREADS * 32)
#define NUM_BLOCKS 480

__global__ void histogram256_ws(const unsigned char *__restrict__ data, unsigned int *__restrict__ hist)
{
    __shared__ unsigned int s_bins[NUM_BINS];

    const unsigned char *block_data = data + (size_t)blockIdx.x * ITEMS_PER_BLOCK;

    if (threadIdx.x < COUNT_THREADS) {
        asm volatile("barrier.sync 2, 256;" ::: "memory"); // bins are zero
        for (int i = threadIdx.x; i < ITEMS_PER_BLOCK; i += COUNT_THREADS)
            atomicAdd(&s_bins[block_data[i]], 1u);
        asm volatile("barrier.arrive 1, 256;" ::: "memory"); // this thread's counts are in
    } else {
        const int owner = threadIdx.x - COUNT_THREADS;
        for (int b = owner; b < NUM_BINS; b += OWNER_THREADS)
            s_bins[b] = 0;
        asm volatile("barrier.arrive 2, 256;" ::: "memory");
        asm volatile("barrier.arrive 1, 256;" ::: "memory"); // all counts are in
        for (int b = owner; b < NUM_BINS; b += OWNER_THREADS) {
            const unsigned int c = s_bins[b];
            if (c != 0)
                atomicAdd(&hist[b], c);
        }
    }
}

int main()
{
    const size_t n = (size_t)NUM_BLOCKS * ITEMS_PER_BLOCK;
    std::vector<unsigned char> h_data(n);
    for (size_t i = 0; i < n; ++i)
        h_data[i] = (unsigned char)((i * 2654435761u) >> 24);

    unsigned char *d_data;
    unsigned int *d_hist;
    cudaMalloc(&d_data, n);
    cudaMalloc(&d_hist, NUM_BINS * sizeof(unsigned int));
    cudaMemcpy(d_data, h_data.data(), n, cudaMemcpyHostToDevice);
    cudaMemset(d_hist, 0, NUM_BINS * sizeof(unsigned int));

    histogram256_ws<<<NUM_BLOCKS, BLOCK_THREADS>>>(d_data, d_hist);
    cudaDeviceSynchronize();

    std::vector<unsigned int> h_hist(NUM_BINS);
    cudaMemcpy(h_hist.data(), d_hist, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
    unsigned long long total = 0;
    for (int b = 0; b < NUM_BINS; ++b)
        total += h_hist[b];
    printf("%llu of %zu bytes counted: %s\n", total, n, total == n ? "PASSED" : "FAILED");

    cudaFree(d_data);
    cudaFree(d_hist);
    return 0;
}
