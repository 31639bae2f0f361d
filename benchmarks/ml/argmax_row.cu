// Top-1 (argmax) per row, e.g. greedy decoding over a vocabulary: each thread scans a strided
// slice, then a shared tree reduction of (value, index) pairs; ties go to the lower index.
#include <cuda_runtime.h>
#include <cstdio>

#define ROWS 1024
#define VOCAB 32768
#define BLOCK 256

__global__ void argmaxRow(const float *__restrict__ logits, int *__restrict__ best)
{
    __shared__ float sVal[BLOCK];
    __shared__ int sIdx[BLOCK];
    const int tid = threadIdx.x;
    const float *row = logits + (size_t)blockIdx.x * VOCAB;

    float v = -INFINITY;
    int idx = tid;
    for (int c = tid; c < VOCAB; c += BLOCK) {
        float x = row[c];
        if (x > v) {
            v = x;
            idx = c;
        }
    }
    sVal[tid] = v;
    sIdx[tid] = idx;
    __syncthreads();

    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) {
            float ov = sVal[tid + s];
            int oi = sIdx[tid + s];
            if (ov > sVal[tid] || (ov == sVal[tid] && oi < sIdx[tid])) {
                sVal[tid] = ov;
                sIdx[tid] = oi;
            }
        }
        __syncthreads();
    }
    if (tid == 0)
        best[blockIdx.x] = sIdx[0];
}

int main()
{
    float *d_logits;
    int *d_best;
    cudaMalloc(&d_logits, (size_t)ROWS * VOCAB * sizeof(float));
    cudaMalloc(&d_best, ROWS * sizeof(int));
    cudaMemset(d_logits, 0, (size_t)ROWS * VOCAB * sizeof(float));
    argmaxRow<<<ROWS, BLOCK>>>(d_logits, d_best);
    cudaDeviceSynchronize();
    printf("argmax_row done\n");
    cudaFree(d_logits);
    cudaFree(d_best);
    return 0;
}
