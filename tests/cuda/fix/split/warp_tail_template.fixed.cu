// An SDK-style templated reduction whose last warp runs without barriers (the pre-Volta idiom).
// Under independent thread scheduling lane l reads sdata[l + 16] while lane l + 16 writes it in
// the same statement; NVIDIA's guidance reads into a register, __syncwarp(), then writes.
#include <cuda_runtime.h>

template <unsigned int blockSize>
__device__ void warpReduce(volatile int *sdata, unsigned int tid)
{
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    __syncwarp();
    if (blockSize >= 32) {
        const auto autosync_v10 = sdata[tid + 16];
        __syncwarp();
        sdata[tid] += autosync_v10;
    }
    __syncwarp();
    if (blockSize >= 16) {
        const auto autosync_v11 = sdata[tid + 8];
        __syncwarp();
        sdata[tid] += autosync_v11;
    }
}

template <unsigned int blockSize>
__global__ void reduce_ints(const int *g_in, int *g_out)
{
    __shared__ int sdata[blockSize];
    unsigned int tid = threadIdx.x;
    sdata[tid] = g_in[blockIdx.x * blockSize + tid];
    __syncthreads();
    for (unsigned int s = blockSize / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32)
        warpReduce<blockSize>(sdata, tid);
    if (tid == 0)
        g_out[blockIdx.x] = sdata[0];
}

int main()
{
    int *d_in, *d_out;
    cudaMalloc(&d_in, 1024 * 256 * sizeof(int));
    cudaMalloc(&d_out, 1024 * sizeof(int));
    reduce_ints<256><<<1024, 256>>>(d_in, d_out);
    cudaDeviceSynchronize();
    return 0;
}
