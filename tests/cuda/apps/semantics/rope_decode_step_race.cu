// Rotary position embedding for one decode step: a single new token, its query heads rotated
// in place by one block. The bug: heads are taken `half` floats apart instead of `head_dim`, so the
// second half of one head is the first half of the next: two threads rotate the same floats.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CUDA_OK(call)                                                                   \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

__global__ void rope_decode(float *q, const float *cos_t, const float *sin_t, int n_heads, int head_dim)
{
    const int half = head_dim / 2;
    for (int p = threadIdx.x; p < n_heads * half; p += blockDim.x) {
        const int h = p / half;
        const int i = p % half;
        float *row = q + h * half;
        const float x1 = row[i];
        const float x2 = row[i + half];
        row[i] = x1 * cos_t[i] - x2 * sin_t[i];
        row[i + half] = x2 * cos_t[i] + x1 * sin_t[i];
    }
}

int main(int argc, char **argv)
{
    int n_heads = argc > 1 ? atoi(argv[1]) : 32;
    int head_dim = argc > 2 ? atoi(argv[2]) : 128;
    if (n_heads <= 0 || head_dim <= 0 || head_dim % 2 != 0 || n_heads > 256 || head_dim > 256) {
        fprintf(stderr, "usage: %s n_heads head_dim (even, at most 256 each)\n", argv[0]);
        return 1;
    }
    const int half = head_dim / 2;
    float *q, *cos_t, *sin_t;
    CUDA_OK(cudaMalloc(&q, n_heads * head_dim * sizeof(float)));
    CUDA_OK(cudaMalloc(&cos_t, half * sizeof(float)));
    CUDA_OK(cudaMalloc(&sin_t, half * sizeof(float)));
    float *h = (float *)malloc(half * sizeof(float));
    for (int i = 0; i < half; ++i)
        h[i] = cosf(0.01f * i);
    CUDA_OK(cudaMemcpy(cos_t, h, half * sizeof(float), cudaMemcpyHostToDevice));
    for (int i = 0; i < half; ++i)
        h[i] = sinf(0.01f * i);
    CUDA_OK(cudaMemcpy(sin_t, h, half * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(q, 0, n_heads * head_dim * sizeof(float)));
    rope_decode<<<1, 256>>>(q, cos_t, sin_t, n_heads, head_dim);
    CUDA_OK(cudaDeviceSynchronize());
    printf("rotated %d heads of %d\n", n_heads, head_dim);
    free(h);
    CUDA_OK(cudaFree(q));
    CUDA_OK(cudaFree(cos_t));
    CUDA_OK(cudaFree(sin_t));
    return 0;
}
