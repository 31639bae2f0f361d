// Attention output O = softmax(S) V for a 16-row block of queries of one head: the score rows
// are staged in shared memory, each row is exponentiated in place by a 16-lane group (shuffle
// reductions for max and sum, normalization deferred to the output), then P V is accumulated
// with V staged in 32-key slices.
#include <cuda_runtime.h>
#include <cstdio>

#define HEADS 32
#define SEQ 128
#define HEAD_DIM 64
#define QROWS 16
#define BLOCK 256
#define GROUP 16
#define KSLICE 32

__global__ void attnSoftmaxV(const float *__restrict__ S, const float *__restrict__ V, float *__restrict__ O)
{
    __shared__ float sP[QROWS][SEQ];
    __shared__ float sV[KSLICE][HEAD_DIM];
    const int tid = threadIdx.x;
    const int h = blockIdx.y;
    const int q0 = blockIdx.x * QROWS;
    const int r = tid / GROUP;
    const int j = tid % GROUP;
    const float *Sh = S + (size_t)h * SEQ * SEQ;
    const float *Vh = V + (size_t)h * SEQ * HEAD_DIM;

#pragma unroll
    for (int p = 0; p < (QROWS * SEQ) / BLOCK; ++p) {
        int idx = tid + p * BLOCK;
        sP[idx / SEQ][idx % SEQ] = Sh[(size_t)(q0 + idx / SEQ) * SEQ + idx % SEQ];
    }
    __syncthreads();

    float m = -INFINITY;
    for (int c = j; c < SEQ; c += GROUP)
        m = fmaxf(m, sP[r][c]);
#pragma unroll
    for (int off = GROUP / 2; off > 0; off >>= 1)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    float l = 0.0f;
    for (int c = j; c < SEQ; c += GROUP) {
        float e = __expf(sP[r][c] - m);
        sP[r][c] = e;
        l += e;
    }
#pragma unroll
    for (int off = GROUP / 2; off > 0; off >>= 1)
        l += __shfl_xor_sync(0xffffffffu, l, off);
    const float inv = 1.0f / l;

    float acc[HEAD_DIM / GROUP];
#pragma unroll
    for (int i = 0; i < HEAD_DIM / GROUP; ++i)
        acc[i] = 0.0f;
    for (int k0 = 0; k0 < SEQ; k0 += KSLICE) {
#pragma unroll
        for (int p = 0; p < (KSLICE * HEAD_DIM) / BLOCK; ++p) {
            int idx = tid + p * BLOCK;
            sV[idx / HEAD_DIM][idx % HEAD_DIM] = Vh[(size_t)(k0 + idx / HEAD_DIM) * HEAD_DIM + idx % HEAD_DIM];
        }
        __syncthreads();
        for (int kk = 0; kk < KSLICE; ++kk) {
            float pv = sP[r][k0 + kk];
#pragma unroll
            for (int i = 0; i < HEAD_DIM / GROUP; ++i)
                acc[i] += pv * sV[kk][j + i * GROUP];
        }
        __syncthreads();
    }

    float *Oh = O + (size_t)h * SEQ * HEAD_DIM + (size_t)(q0 + r) * HEAD_DIM;
#pragma unroll
    for (int i = 0; i < HEAD_DIM / GROUP; ++i)
        Oh[j + i * GROUP] = acc[i] * inv;
}

int main()
{
    float *d_s, *d_v, *d_o;
    cudaMalloc(&d_s, (size_t)HEADS * SEQ * SEQ * sizeof(float));
    cudaMalloc(&d_v, (size_t)HEADS * SEQ * HEAD_DIM * sizeof(float));
    cudaMalloc(&d_o, (size_t)HEADS * SEQ * HEAD_DIM * sizeof(float));
    cudaMemset(d_s, 0, (size_t)HEADS * SEQ * SEQ * sizeof(float));
    cudaMemset(d_v, 0, (size_t)HEADS * SEQ * HEAD_DIM * sizeof(float));
    dim3 grid(SEQ / QROWS, HEADS);
    attnSoftmaxV<<<grid, BLOCK>>>(d_s, d_v, d_o);
    cudaDeviceSynchronize();
    printf("attn_softmax_v done\n");
    cudaFree(d_s);
    cudaFree(d_v);
    cudaFree(d_o);
    return 0;
}
