// Small helpers shared by the fused inference kernels in this folder.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#ifndef WARP_SIZE
#define WARP_SIZE 32
#endif
#define FULL_MASK 0xffffffffu

static inline __host__ __device__ int ceil_div(int a, int b) { return (a + b - 1) / b; }

__device__ __forceinline__ float warp_reduce_sum(float v) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(FULL_MASK, v, offset);
  return v;
}

__device__ __forceinline__ float warp_reduce_max(float v) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, offset));
  return v;
}

// Sum over a 1-D block whose size is a multiple of 32. `scratch` holds one float
// per warp (32 floats always suffice). Every thread receives the total, and the
// function may be called again with the same scratch buffer.
__device__ __forceinline__ float block_reduce_sum(float v, float* scratch) {
  const int lane = threadIdx.x % WARP_SIZE;
  const int wid = threadIdx.x / WARP_SIZE;
  const int nwarps = blockDim.x / WARP_SIZE;
  v = warp_reduce_sum(v);
  __syncthreads();
  if (lane == 0) scratch[wid] = v;
  __syncthreads();
  v = (lane < nwarps) ? scratch[lane] : 0.f;
  return warp_reduce_sum(v);
}

// tanh approximation of GELU (GPT-2 / BERT).
__device__ __forceinline__ float gelu_tanh(float x) {
  const float k0 = 0.7978845608028654f;  // sqrt(2/pi)
  const float k1 = 0.044715f;
  return 0.5f * x * (1.f + tanhf(k0 * (x + k1 * x * x * x)));
}
