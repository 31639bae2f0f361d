// A block-local work queue in shared memory (the hierarchical-queue BFS of Luo et al. and many
// graph frameworks): thread 0 resets the queue length, every thread appends the items it keeps
// with a shared atomic counter, and after a barrier the block copies its queue to its slice of
// the global output.
#include <cuda_runtime.h>

#define BLOCK 128
#define CAPACITY 128

__global__ void filter_block(const int *in, int n, int threshold, int *out, int *out_len)
{
    __shared__ int queue[CAPACITY];
    __shared__ int qlen;
    if (threadIdx.x == 0)
        qlen = 0;
    __syncthreads();
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n && in[i] > threshold) {
        int slot = atomicAdd(&qlen, 1);
        queue[slot] = in[i];
    }
    __syncthreads();
    int len = qlen;
    for (int j = threadIdx.x; j < CAPACITY; j += BLOCK) {
        if (j < len)
            out[blockIdx.x * CAPACITY + j] = queue[j];
    }
    if (threadIdx.x == 0)
        out_len[blockIdx.x] = len;
}

int main()
{
    const int n = 8192 * BLOCK;
    int *in, *out, *len;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&len, (n / BLOCK) * sizeof(int));
    filter_block<<<8192, BLOCK>>>(in, n, 42, out, len);
    cudaDeviceSynchronize();
    return 0;
}
