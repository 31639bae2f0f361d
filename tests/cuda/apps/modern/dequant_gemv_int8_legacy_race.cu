// Weight-only int8 GEMV, block-per-row variant: 256 threads accumulate partial dot products,
// reduce them in shared memory with a tree, and finish with the classic unrolled last-warp
// reduction through a volatile pointer. Bug: that idiom relies on implicit warp lock-step; on
// Volta and later the lanes of the last warp race with each other inside each step.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>

constexpr int kBlock = 256;

__global__ void __launch_bounds__(kBlock)
w8_gemv_block(const int8_t *__restrict__ W, const float *__restrict__ row_scale, const half *__restrict__ x,
              half *__restrict__ y, int K) {
  __shared__ float partial[kBlock];
  const int tid = threadIdx.x;
  const int8_t *w = W + static_cast<size_t>(blockIdx.x) * K;
  float acc = 0.f;
  for (int k = tid; k < K; k += kBlock) acc += static_cast<float>(w[k]) * __half2float(x[k]);
  partial[tid] = acc;
  __syncthreads();
  for (int s = kBlock / 2; s > 32; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float *v = partial;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0) y[blockIdx.x] = __float2half(partial[0] * row_scale[blockIdx.x]);
}

void gemv_w8_rows(const int8_t *W, const float *scale, const half *x, half *y, int N, int K, cudaStream_t stream) {
  w8_gemv_block<<<N, kBlock, 0, stream>>>(W, scale, x, y, K);
}
