// Rotary position embedding (rotate-half / GPT-NeoX layout) applied to Q or K: a block of 256
// threads stages 4 tokens x 64 dims of one head in shared memory, and each thread combines its
// element with the partner half a head-dim away, which another thread loaded.
#include <cuda_runtime.h>
#include <cstdio>

#define TOKENS 4096
#define HEADS 32
#define HEAD_DIM 64
#define HALF (HEAD_DIM / 2)
#define BLOCK 256
#define TOK_PER_BLOCK (BLOCK / HEAD_DIM)
#define THETA 10000.0f

__global__ void ropeShared(const float *__restrict__ x, float *__restrict__ out)
{
    __shared__ float tile[TOK_PER_BLOCK][HEAD_DIM];
    const int tid = threadIdx.x;
    const int t = tid / HEAD_DIM;
    const int d = tid % HEAD_DIM;
    const int h = blockIdx.y;
    const int tok = blockIdx.x * TOK_PER_BLOCK + t;
    const size_t off = ((size_t)tok * HEADS + h) * HEAD_DIM + d;

    tile[t][d] = x[off];
    __syncthreads();

    const int i = d % HALF;
    const float invFreq = powf(THETA, -2.0f * i / HEAD_DIM);
    float sn, cs;
    sincosf(tok * invFreq, &sn, &cs);
    float v;
    if (d < HALF)
        v = tile[t][d] * cs - tile[t][d + HALF] * sn;
    else
        v = tile[t][d] * cs + tile[t][d - HALF] * sn;
    out[off] = v;
}

int main()
{
    float *d_x, *d_out;
    size_t bytes = (size_t)TOKENS * HEADS * HEAD_DIM * sizeof(float);
    cudaMalloc(&d_x, bytes);
    cudaMalloc(&d_out, bytes);
    cudaMemset(d_x, 0, bytes);
    dim3 grid(TOKENS / TOK_PER_BLOCK, HEADS);
    ropeShared<<<grid, BLOCK>>>(d_x, d_out);
    cudaDeviceSynchronize();
    printf("rope_shared done\n");
    cudaFree(d_x);
    cudaFree(d_out);
    return 0;
}
