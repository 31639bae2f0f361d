// Attention scores S = (Q K^T) * scale per head: a 16x16 tile of S per block, with 16-wide
// slices of the head dimension of Q and K staged in shared memory (K's slice padded).
#include <cuda_runtime.h>
#include <cstdio>

#define HEADS 64
#define SEQ 512
#define HEAD_DIM 64
#define TILE 16

__global__ void attnScores(const float *__restrict__ Q, const float *__restrict__ K, float *__restrict__ S, float scale)
{
    __shared__ float Qs[TILE][TILE];
    __shared__ float Ks[TILE][TILE + 1];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int h = blockIdx.z;
    const int qRow = blockIdx.y * TILE + ty;
    const int kRowLoad = blockIdx.x * TILE + ty;
    const int kCol = blockIdx.x * TILE + tx;
    const float *Qh = Q + (size_t)h * SEQ * HEAD_DIM;
    const float *Kh = K + (size_t)h * SEQ * HEAD_DIM;

    float acc = 0.0f;
    for (int d0 = 0; d0 < HEAD_DIM; d0 += TILE) {
        Qs[ty][tx] = Qh[(size_t)qRow * HEAD_DIM + d0 + tx];
        Ks[ty][tx] = Kh[(size_t)kRowLoad * HEAD_DIM + d0 + tx];
        __syncthreads();
#pragma unroll
        for (int d = 0; d < TILE; ++d)
            acc += Qs[ty][d] * Ks[tx][d];
        __syncthreads();
    }
    S[(size_t)h * SEQ * SEQ + (size_t)qRow * SEQ + kCol] = acc * scale;
}

int main()
{
    float *d_q, *d_k, *d_s;
    size_t qkBytes = (size_t)HEADS * SEQ * HEAD_DIM * sizeof(float);
    cudaMalloc(&d_q, qkBytes);
    cudaMalloc(&d_k, qkBytes);
    cudaMalloc(&d_s, (size_t)HEADS * SEQ * SEQ * sizeof(float));
    cudaMemset(d_q, 0, qkBytes);
    cudaMemset(d_k, 0, qkBytes);
    dim3 block(TILE, TILE);
    dim3 grid(SEQ / TILE, SEQ / TILE, HEADS);
    attnScores<<<grid, block>>>(d_q, d_k, d_s, 0.125f);
    cudaDeviceSynchronize();
    printf("attn_scores done\n");
    cudaFree(d_q);
    cudaFree(d_k);
    cudaFree(d_s);
    return 0;
}
