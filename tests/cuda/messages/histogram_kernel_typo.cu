// A shared-memory histogram and the pass that clears it; `--kernel histogram` is a typo for
// the kernel's real name.
#include <cuda_runtime.h>

__global__ void clearBins(unsigned int *bins)
{
    bins[blockIdx.x * blockDim.x + threadIdx.x] = 0;
}

__global__ void histogram256(const unsigned char *data, unsigned int *bins, int n)
{
    __shared__ unsigned int local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main()
{
    unsigned char *data;
    unsigned int *bins;
    cudaMalloc(&data, 1 << 24);
    cudaMalloc(&bins, 256 * sizeof(unsigned int));
    clearBins<<<1, 256>>>(bins);
    histogram256<<<64, 256>>>(data, bins, 1 << 24);
    cudaDeviceSynchronize();
    return 0;
}
