// Average pooling by 4 along the embedding dimension, in the style of ML inference code: each
// block reduces one token's row of emb_size floats to emb_size / 4 outputs, one per thread, and
// the kernel relies on blockDim.x == emb_size / 4 — but the host launches emb_size / 2 threads.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void pool4(const float *emb, float *pooled, int emb_size)
{
    int out_size = emb_size / 4;
    const float *row = emb + blockIdx.x * emb_size;
    float sum = 0.0f;
    for (int j = 0; j < 4; ++j)
        sum += row[4 * threadIdx.x + j];
    pooled[blockIdx.x * out_size + threadIdx.x] = 0.25f * sum;
}

static void run_pool(const float *emb, float *pooled, int tokens, int emb_size)
{
    dim3 block(emb_size / 2);
    dim3 grid(tokens);
    pool4<<<grid, block>>>(emb, pooled, emb_size);
}

int main(int argc, char **argv)
{
    int tokens = argc > 1 ? atoi(argv[1]) : 128;
    int emb_size = argc > 2 ? atoi(argv[2]) : 768;
    float *emb, *pooled;
    cudaMalloc(&emb, (size_t)tokens * emb_size * sizeof(float));
    cudaMalloc(&pooled, (size_t)tokens * (emb_size / 4) * sizeof(float));
    run_pool(emb, pooled, tokens, emb_size);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
