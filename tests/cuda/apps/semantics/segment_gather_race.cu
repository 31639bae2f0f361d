// The last pass of a two-level stream compaction: every segment of the first pass left its kept
// items in its own fixed-capacity slot and its count in seg_len; one block concatenates them.
// Thread 0 keeps the running output offset in shared memory; the block copies each segment with
// a block-stride loop at that offset. The bug: the barrier after the offset update is missing, so
// thread 0 moves `base` while the other threads still read it for the next segment.
#include <cstdio>
#include <cuda_runtime.h>

#define SEG_CAP 512
#define THREADS 256

__global__ void gather_segments(const int *__restrict__ seg_items, const int *__restrict__ seg_len,
                                int nseg, int *__restrict__ out, int *__restrict__ total)
{
    __shared__ int base;
    if (threadIdx.x == 0)
        base = 0;
    __syncthreads();
    for (int s = 0; s < nseg; ++s) {
        const int len = seg_len[s];
        for (int j = threadIdx.x; j < len; j += blockDim.x)
            out[base + j] = seg_items[s * SEG_CAP + j];
        __syncthreads();
        if (threadIdx.x == 0)
            base += len;
    }
    if (threadIdx.x == 0)
        *total = base;
}

int main()
{
    const int nseg = 64;
    int *items, *lens, *out, *total;
    cudaMalloc(&items, nseg * SEG_CAP * sizeof(int));
    cudaMalloc(&lens, nseg * sizeof(int));
    cudaMalloc(&out, nseg * SEG_CAP * sizeof(int));
    cudaMalloc(&total, sizeof(int));
    dim3 grid(1), block(THREADS);
    gather_segments<<<grid, block>>>(items, lens, nseg, out, total);
    int h_total = 0;
    cudaMemcpy(&h_total, total, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d items\n", h_total);
    return 0;
}
