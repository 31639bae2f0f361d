#include <cuda_runtime.h>

__device__ void warpReduce(volatile float *sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32];
    __syncwarp();
    const auto autosync_v6 = sdata[tid + 16];
    __syncwarp();
    sdata[tid] += autosync_v6;
    __syncwarp();
    const auto autosync_v7 = sdata[tid + 8];
    __syncwarp();
    sdata[tid] += autosync_v7;
    __syncwarp();
    const auto autosync_v8 = sdata[tid + 4];
    __syncwarp();
    sdata[tid] += autosync_v8;
    __syncwarp();
    const auto autosync_v9 = sdata[tid + 2];
    __syncwarp();
    sdata[tid] += autosync_v9;
    __syncwarp();
    const auto autosync_v10 = sdata[tid + 1];
    __syncwarp();
    sdata[tid] += autosync_v10;
}

__global__ void reduce6(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[512];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    sdata[tid] = (i < n ? g_idata[i] : 0.0f) + (i + blockDim.x < n ? g_idata[i + blockDim.x] : 0.0f);
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32)
        warpReduce(sdata, tid);
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

int main()
{
    float *a, *b;
    cudaMalloc(&a, 1 << 24);
    cudaMalloc(&b, 1 << 16);
    dim3 block(256);
    dim3 grid(1024);
    reduce6<<<grid, block>>>(a, b, 1 << 20);
    return 0;
}
