// A shared-memory histogram that increments bins with plain read-modify-write instead of
// atomicAdd (the race the CUDA by Example chapter warns about).
#include <cuda_runtime.h>

#define BINS 256

__global__ void histo_plain(const unsigned char *buffer, long size, unsigned int *histo)
{
    __shared__ unsigned int temp[BINS];
    temp[threadIdx.x] = 0;
    __syncthreads();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int stride = blockDim.x * gridDim.x;
    while (i < size) {
        temp[buffer[i]] += 1;
        i += stride;
    }
    __syncthreads();
    atomicAdd(&histo[threadIdx.x], temp[threadIdx.x]);
}

int main()
{
    const long SIZE = 1 << 24;
    unsigned char *buf;
    unsigned int *histo;
    cudaMalloc(&buf, SIZE);
    cudaMalloc(&histo, BINS * sizeof(unsigned int));
    histo_plain<<<128, BINS>>>(buf, SIZE, histo);
    cudaDeviceSynchronize();
    return 0;
}
