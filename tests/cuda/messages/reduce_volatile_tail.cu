// The classic block reduction with a `volatile` warp tail written for lock-step warps: under
// independent thread scheduling (sm_70 and later) the tail races. With --no-warp, `fix` may
// place only __syncthreads(), which cannot go inside `if (tid < 32)`: the messages name the
// cures that remain (__syncwarp without --no-warp, or --warp-sync for pre-Volta semantics).
#include <cuda_runtime.h>

#define BLOCK 256

__device__ void warpReduce(volatile float *sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
}

__global__ void reduceSum(const float *in, float *out)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    for (unsigned int s = BLOCK / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32)
        warpReduce(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 4096 * BLOCK * sizeof(float));
    cudaMalloc(&out, 4096 * sizeof(float));
    reduceSum<<<4096, BLOCK>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
