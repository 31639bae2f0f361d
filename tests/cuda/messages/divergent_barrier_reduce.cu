// A tree reduction whose barrier sits inside the thread-dependent `if`: `check` reports the
// divergence and names the cure (`autosync fix` moves the barrier).
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void blockSum(const float *in, float *out)
{
    __shared__ float partial[BLOCK];
    unsigned int tid = threadIdx.x;
    partial[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    for (unsigned int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) {
            partial[tid] += partial[tid + s];
            __syncthreads();
        }
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 1024 * BLOCK * sizeof(float));
    cudaMalloc(&out, 1024 * sizeof(float));
    blockSum<<<1024, BLOCK>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
