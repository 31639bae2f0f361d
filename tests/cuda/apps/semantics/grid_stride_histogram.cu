// Shared-memory privatized histogram (CUDA by Example / SDK style): zero the block's bins with a
// block-stride loop, accumulate with a grid-stride loop and shared atomics, merge with global
// atomics.
#include <cuda_runtime.h>

#define BINS 256

__global__ void histo_kernel(const unsigned char *buffer, long size, unsigned int *histo)
{
    __shared__ unsigned int temp[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        temp[b] = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int offset = blockDim.x * gridDim.x;
    while (i < size) {
        atomicAdd(&temp[buffer[i]], 1);
        i += offset;
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        atomicAdd(&histo[b], temp[b]);
}

int main()
{
    const long SIZE = 100L * 1024 * 1024;
    unsigned char *dev_buffer;
    unsigned int *dev_histo;
    cudaMalloc(&dev_buffer, SIZE);
    cudaMalloc(&dev_histo, BINS * sizeof(unsigned int));
    cudaMemset(dev_histo, 0, BINS * sizeof(unsigned int));
    int blocks = 0;
    cudaDeviceGetAttribute(&blocks, cudaDevAttrMultiProcessorCount, 0);
    histo_kernel<<<blocks * 2, 256>>>(dev_buffer, SIZE, dev_histo);
    cudaDeviceSynchronize();
    return 0;
}
