// Iterative 1-D smoothing in textbook style with double buffering in shared memory: two
// buffers, `cur` and `nxt` pointing at them, chosen by the step's parity. Each step reads `cur`
// and writes `nxt`; the barrier at the end of the step orders the writes before the next
// step's reads (of what is then `cur`) and the reads before the next writes.
#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 256
#define STEPS 8

__global__ void smoothBlocks(const float *in, float *out)
{
    __shared__ float bufA[BLOCK + 2];
    __shared__ float bufB[BLOCK + 2];
    int t = threadIdx.x;
    int g = blockIdx.x * BLOCK + t;
    bufA[t + 1] = in[g];
    bufB[t + 1] = 0.0f;
    if (t == 0) {
        bufA[0] = 0.0f;
        bufA[BLOCK + 1] = 0.0f;
        bufB[0] = 0.0f;
        bufB[BLOCK + 1] = 0.0f;
    }
    __syncthreads();
    for (int s = 0; s < STEPS; ++s) {
        // Even steps read A and write B, odd steps the other way round.
        float *cur = (s & 1) ? bufB : bufA;
        float *nxt = (s & 1) ? bufA : bufB;
        nxt[t + 1] = 0.25f * cur[t] + 0.5f * cur[t + 1] + 0.25f * cur[t + 2];
        __syncthreads();
    }
    out[g] = (STEPS & 1) ? bufB[t + 1] : bufA[t + 1];
}

int main()
{
    const int n = 1 << 20;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    dim3 block(BLOCK);
    dim3 grid(n / BLOCK);
    smoothBlocks<<<grid, block>>>(in, out);
    cudaDeviceSynchronize();
    printf("smoothed\n");
    return 0;
}
