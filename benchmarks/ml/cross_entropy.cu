// Cross-entropy loss per row: loss = logsumexp(logits) - logits[label]. Max and sum are each
// reduced with warp shuffles and a shared cross-warp step; the same shared slots are reused.
#include <cuda_runtime.h>
#include <cstdio>

#define ROWS 4096
#define VOCAB 8192
#define BLOCK 256
#define WARP 32
#define NWARPS (BLOCK / WARP)

__global__ void crossEntropy(const float *__restrict__ logits, const int *__restrict__ labels, float *__restrict__ loss)
{
    __shared__ float sWarp[NWARPS];
    const int tid = threadIdx.x;
    const int lane = tid % WARP;
    const int warp = tid / WARP;
    const float *row = logits + (size_t)blockIdx.x * VOCAB;

    float m = -INFINITY;
    for (int c = tid; c < VOCAB; c += BLOCK)
        m = fmaxf(m, row[c]);
#pragma unroll
    for (int off = WARP / 2; off > 0; off >>= 1)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    if (lane == 0)
        sWarp[warp] = m;
    __syncthreads();
    float rowMax = sWarp[0];
#pragma unroll
    for (int w = 1; w < NWARPS; ++w)
        rowMax = fmaxf(rowMax, sWarp[w]);
    __syncthreads();

    float s = 0.0f;
    for (int c = tid; c < VOCAB; c += BLOCK)
        s += __expf(row[c] - rowMax);
#pragma unroll
    for (int off = WARP / 2; off > 0; off >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0)
        sWarp[warp] = s;
    __syncthreads();

    if (tid == 0) {
        float total = 0.0f;
        for (int w = 0; w < NWARPS; ++w)
            total += sWarp[w];
        int label = labels[blockIdx.x] & (VOCAB - 1);
        loss[blockIdx.x] = logf(total) + rowMax - row[label];
    }
}

int main()
{
    float *d_logits, *d_loss;
    int *d_labels;
    cudaMalloc(&d_logits, (size_t)ROWS * VOCAB * sizeof(float));
    cudaMalloc(&d_labels, ROWS * sizeof(int));
    cudaMalloc(&d_loss, ROWS * sizeof(float));
    cudaMemset(d_logits, 0, (size_t)ROWS * VOCAB * sizeof(float));
    cudaMemset(d_labels, 0, ROWS * sizeof(int));
    crossEntropy<<<ROWS, BLOCK>>>(d_logits, d_labels, d_loss);
    cudaDeviceSynchronize();
    printf("cross_entropy done\n");
    cudaFree(d_logits);
    cudaFree(d_labels);
    cudaFree(d_loss);
    return 0;
}
