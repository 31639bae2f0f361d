// Work-efficient exclusive scan (Blelloch): each block of 256 threads scans 512 elements in
// shared memory with an up-sweep (reduce) and a down-sweep, and records its total.
#include <cuda_runtime.h>
#include <cstdio>

#define N (1 << 22)
#define BLOCK 256
#define ELEMS (2 * BLOCK)

__global__ void scanBlelloch(const int *__restrict__ in, int *__restrict__ out, int *__restrict__ blockSums)
{
    __shared__ int temp[ELEMS];
    __shared__ int total;
    const int tid = threadIdx.x;
    const int base = blockIdx.x * ELEMS;

    temp[2 * tid] = in[base + 2 * tid];
    temp[2 * tid + 1] = in[base + 2 * tid + 1];

    int offset = 1;
    for (int d = ELEMS >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset <<= 1;
    }

    if (tid == 0) {
        total = temp[ELEMS - 1];
        temp[ELEMS - 1] = 0;
    }

    for (int d = 1; d < ELEMS; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    // The last down-sweep step (offset 1) wrote exactly temp[2*tid] and temp[2*tid+1], the two
    // elements this thread reads back, so no barrier is needed here.

    out[base + 2 * tid] = temp[2 * tid];
    out[base + 2 * tid + 1] = temp[2 * tid + 1];
    if (tid == 0)
        blockSums[blockIdx.x] = total;
}

int main()
{
    int *d_in, *d_out, *d_sums;
    cudaMalloc(&d_in, N * sizeof(int));
    cudaMalloc(&d_out, N * sizeof(int));
    cudaMalloc(&d_sums, (N / ELEMS) * sizeof(int));
    cudaMemset(d_in, 0, N * sizeof(int));
    scanBlelloch<<<N / ELEMS, BLOCK>>>(d_in, d_out, d_sums);
    cudaDeviceSynchronize();
    printf("scan_blelloch done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sums);
    return 0;
}
