#include <cuda_runtime.h>

#define BINS 256

// Per-block histogram in shared memory, merged into the global one. The final store of the
// block's total is a bug: every block writes `total[0]`.
__global__ void histogram256(const unsigned char *data, unsigned int n, unsigned int *hist, unsigned int *total)
{
    __shared__ unsigned int local[BINS];
    unsigned int tid = threadIdx.x;
    local[tid] = 0;
    for (unsigned int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    atomicAdd(&hist[tid], local[tid]);
    if (tid == 0)
        total[0] = n;
}

int main()
{
    unsigned int n = 1 << 24;
    unsigned char *d_data;
    unsigned int *d_hist, *d_total;
    cudaMalloc(&d_data, n);
    cudaMalloc(&d_hist, BINS * sizeof(unsigned int));
    cudaMalloc(&d_total, sizeof(unsigned int));
    dim3 block(BINS);
    dim3 grid(64);
    histogram256<<<grid, block>>>(d_data, n, d_hist, d_total);
    cudaDeviceSynchronize();
    return 0;
}
