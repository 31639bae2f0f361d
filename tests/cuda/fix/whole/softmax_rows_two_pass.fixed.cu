// Row-wise softmax, one block per row, the way ML training code writes it: the maximum and then
// the sum are each reduced by warp shuffles and a second pass over the warps' partial results in
// shared memory. Written without barriers: both passes reuse `red`, so `fix` must also separate
// the first pass's last read of red[0] from the second pass's writes.
#include <cuda_runtime.h>
#include <cfloat>
#include <cstdio>

#define WARP 32

__inline__ __device__ float warpMax(float v) {
    for (int o = WARP / 2; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}

__inline__ __device__ float warpSum(float v) {
    for (int o = WARP / 2; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

template <int THREADS>
__global__ void softmax_rows(const float* __restrict__ in, float* __restrict__ out, int cols) {
    __shared__ float red[THREADS / WARP];
    const float* x = in + (size_t)blockIdx.x * cols;
    float* y = out + (size_t)blockIdx.x * cols;
    int lane = threadIdx.x % WARP, wid = threadIdx.x / WARP;

    float m = -FLT_MAX;
    for (int c = threadIdx.x; c < cols; c += THREADS) m = fmaxf(m, x[c]);
    m = warpMax(m);
    if (lane == 0) red[wid] = m;
    __syncthreads();
    m = (threadIdx.x < THREADS / WARP) ? red[lane] : -FLT_MAX;
    if (wid == 0) m = warpMax(m);
    if (threadIdx.x == 0) red[0] = m;
    __syncthreads();
    m = red[0];
    __syncthreads();

    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += THREADS) s += __expf(x[c] - m);
    s = warpSum(s);
    if (lane == 0) red[wid] = s;
    __syncthreads();
    s = (threadIdx.x < THREADS / WARP) ? red[lane] : 0.f;
    if (wid == 0) s = warpSum(s);
    if (threadIdx.x == 0) red[0] = s;
    __syncthreads();
    float inv = 1.f / red[0];
    for (int c = threadIdx.x; c < cols; c += THREADS) y[c] = __expf(x[c] - m) * inv;
}

int main() {
    const int rows = 4096, cols = 1000;
    float *din, *dout;
    cudaMalloc(&din, rows * cols * sizeof(float));
    cudaMalloc(&dout, rows * cols * sizeof(float));
    softmax_rows<256><<<rows, 256>>>(din, dout, cols);
    cudaDeviceSynchronize();
    printf("ok\n");
    return 0;
}
