// Block sums with the tree step's barrier written inside the guard: threads with tid >= s never
// reach it, so the block deadlocks or races. `fix` moves it where every thread gets.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void blockSum(const float *in, float *out, int n)
{
    __shared__ float partial[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    partial[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (tid < s) {
            partial[tid] += partial[tid + s];
        }
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

int main()
{
    const int n = 1 << 20;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, (n / BLOCK) * sizeof(float));
    dim3 block(BLOCK);
    dim3 grid(n / BLOCK);
    blockSum<<<grid, block>>>(in, out, n);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
