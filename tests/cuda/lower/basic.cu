//--blockDim=256 --gridDim=64
#include <cuda.h>
#define N 16

__global__ void basic(float *A, const int* __restrict__ B, unsigned n, int m) {
    __shared__ float s[N + 1][32];
    extern __shared__ int d[];
    __shared__ int cnt;
    int i = threadIdx.x, j;
    unsigned u = 3u;
    float f = 1.5f;
    A[i] += B[j] * s[i][j];
    i++; --j;
    i = j = 2;
    d[i] = cnt;
    cnt = 1;
    __syncthreads();
    f = (float)i * 2.0f;
    i = (int)f + sizeof(int);
    u = u / 2 + (i >> 1) + (u >> 1);
    j = i < m && u < n;
}
