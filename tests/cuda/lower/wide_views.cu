#include <cuda_fp16.h>
// Wider views of narrower elements (issue #37): each word of the view covers k elements.
#define FLOAT4(v) (reinterpret_cast<float4 *>(&(v))[0])

__global__ void k(half *x, unsigned char *hist, int n) {
    __shared__ half tile[8][64];
    __shared__ unsigned char bins[256];
    extern __shared__ char smem[];
    int t = threadIdx.x;
    // float4 over half: 4 words of 2 halves each.
    FLOAT4(tile[0][8 * t]) = FLOAT4(x[8 * t]);
    // A member through the view: .y is halves 2..4 of the 8.
    float4 *row = reinterpret_cast<float4 *>(&tile[1][0]);
    row[t].y = 1.0f;
    // Pointer arithmetic in the view's words: p + 1 is 8 halves further.
    float4 *p = reinterpret_cast<float4 *>(x) + t;
    p += 1;
    p->w = 0.0f;
    // Bytes read as words, and an int atomic over bytes.
    unsigned int *w = (unsigned int *)bins;
    unsigned int four = w[t];
    atomicAdd(&w[t + 1], four);
    // Typed regions of byte shared memory.
    float *a = (float *)smem;
    int *b = (int *)&smem[64 * sizeof(float)];
    a[t] = 2.0f;
    b[t] = t;
}
