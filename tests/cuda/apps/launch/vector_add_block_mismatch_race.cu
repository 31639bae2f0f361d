// Textbook vector addition (launched with twice the block the kernel assumes) where the kernel hard-codes its block size in the index (the way
// first CUDA programs are written), and the host computes the grid from n.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define THREADS_PER_BLOCK 256

__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * THREADS_PER_BLOCK + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char *argv[])
{
    int n = argc > 1 ? atoi(argv[1]) : (1 << 20);
    float *a, *b, *c;
    cudaMalloc((void **)&a, n * sizeof(float));
    cudaMalloc((void **)&b, n * sizeof(float));
    cudaMalloc((void **)&c, n * sizeof(float));
    int blocks = (n + 2 * THREADS_PER_BLOCK - 1) / (2 * THREADS_PER_BLOCK);
    vecAdd<<<blocks, 2 * THREADS_PER_BLOCK>>>(a, b, c, n);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaDeviceSynchronize();
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return 0;
}
