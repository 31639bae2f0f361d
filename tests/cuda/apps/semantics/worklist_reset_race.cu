// A block-level queue whose length is reset by thread 0 without a barrier before the other
// threads push: a push can run before the reset and be overwritten by a later push.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void gather_active(const int *flags, int *out)
{
    __shared__ int qlen;
    __shared__ int queue[BLOCK];
    if (threadIdx.x == 0)
        qlen = 0;
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (flags[i]) {
        int slot = atomicAdd(&qlen, 1);
        queue[slot] = i;
    }
    __syncthreads();
    out[blockIdx.x * BLOCK + threadIdx.x] = queue[threadIdx.x];
}

int main()
{
    int *flags, *out;
    cudaMalloc(&flags, 1024 * BLOCK * sizeof(int));
    cudaMalloc(&out, 1024 * BLOCK * sizeof(int));
    gather_active<<<1024, BLOCK>>>(flags, out);
    cudaDeviceSynchronize();
    return 0;
}
