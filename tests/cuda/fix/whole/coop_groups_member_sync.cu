// Reverse each block's chunk of an array through shared memory, written with cooperative
// groups: the block's barrier is `cta.sync()`, and that is what `fix` writes.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHUNK 256

__global__ void reverseChunks(int *data)
{
    cg::thread_block cta = cg::this_thread_block();
    __shared__ int chunk[CHUNK];
    unsigned int t = cta.thread_rank();
    unsigned int base = blockIdx.x * CHUNK;

    chunk[t] = data[base + t];
    data[base + t] = chunk[CHUNK - 1 - t];
}

int main()
{
    const int n = 1 << 20;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    dim3 block(CHUNK);
    dim3 grid(n / CHUNK);
    reverseChunks<<<grid, block>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
