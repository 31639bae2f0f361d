// Per-thread top-K by insertion into a sorted register array, then one thread per block
// writes the block's candidates. The insertion walks `j` down while the slot above is smaller;
// `j > 0` stops it at the first slot.
#include <cstdio>
#include <cstdlib>
#include <cfloat>
#include <cuda_runtime.h>

#define K 8
#define THREADS 128

__global__ void topkInsert(const float *x, float *cand, int n)
{
    float best[K];
    for (int j = 0; j < K; ++j)
        best[j] = -FLT_MAX;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = x[i];
        if (v <= best[K - 1])
            continue;
        int j = K - 1;
        while (j > 0 && best[j - 1] < v) {
            best[j] = best[j - 1];
            --j;
        }
        best[j] = v;
    }
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = 0; j < K; ++j)
        cand[g * K + j] = best[j];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : (1 << 20);
    if (n <= 0) {
        fprintf(stderr, "n must be positive\n");
        return 1;
    }
    const int blocks = 64;
    float *x, *cand;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&cand, blocks * THREADS * K * sizeof(float));
    topkInsert<<<blocks, THREADS>>>(x, cand, n);
    cudaDeviceSynchronize();
    cudaFree(x);
    cudaFree(cand);
    return 0;
}
