// Online (single-pass) softmax: each thread keeps a running (max, normalizer) pair, warps merge
// the pairs with shuffles, and lane 0 of every warp publishes its pair in shared memory so that
// every thread can merge the per-warp pairs.
#include <cuda_runtime.h>
#include <cstdio>

#define ROWS 2048
#define COLS 2048
#define BLOCK 128
#define WARP 32
#define NWARPS (BLOCK / WARP)

__device__ __forceinline__ void mergeMD(float &m, float &d, float m2, float d2)
{
    float mNew = fmaxf(m, m2);
    d = d * __expf(m - mNew) + d2 * __expf(m2 - mNew);
    m = mNew;
}

__global__ void onlineSoftmax(const float *__restrict__ x, float *__restrict__ y)
{
    __shared__ float sMax[NWARPS];
    __shared__ float sDen[NWARPS];
    const int tid = threadIdx.x;
    const int lane = tid % WARP;
    const int warp = tid / WARP;
    const float *xr = x + (size_t)blockIdx.x * COLS;
    float *yr = y + (size_t)blockIdx.x * COLS;

    float m = -INFINITY;
    float d = 0.0f;
    for (int c = tid; c < COLS; c += BLOCK) {
        float v = xr[c];
        float mNew = fmaxf(m, v);
        d = d * __expf(m - mNew) + __expf(v - mNew);
        m = mNew;
    }
#pragma unroll
    for (int off = WARP / 2; off > 0; off >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, off);
        float d2 = __shfl_xor_sync(0xffffffffu, d, off);
        mergeMD(m, d, m2, d2);
    }
    if (lane == 0) {
        sMax[warp] = m;
        sDen[warp] = d;
    }
    __syncthreads();

    float gm = sMax[0];
    float gd = sDen[0];
#pragma unroll
    for (int w = 1; w < NWARPS; ++w)
        mergeMD(gm, gd, sMax[w], sDen[w]);
    const float inv = 1.0f / gd;
    for (int c = tid; c < COLS; c += BLOCK)
        yr[c] = __expf(xr[c] - gm) * inv;
}

int main()
{
    float *d_x, *d_y;
    cudaMalloc(&d_x, (size_t)ROWS * COLS * sizeof(float));
    cudaMalloc(&d_y, (size_t)ROWS * COLS * sizeof(float));
    cudaMemset(d_x, 0, (size_t)ROWS * COLS * sizeof(float));
    onlineSoftmax<<<ROWS, BLOCK>>>(d_x, d_y);
    cudaDeviceSynchronize();
    printf("online_softmax done\n");
    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
