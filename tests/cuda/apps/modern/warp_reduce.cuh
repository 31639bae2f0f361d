// Warp- and block-level reduction helpers shared by the normalization and softmax kernels of
// this directory (the kind of `reduce_utils.cuh` every extension carries).
#pragma once
#include <cuda_runtime.h>

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T val) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1)
    val += __shfl_xor_sync(kFullMask, val, offset);
  return val;
}

template <typename T>
__device__ __forceinline__ T warp_reduce_max(T val) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1)
    val = fmaxf(val, __shfl_xor_sync(kFullMask, val, offset));
  return val;
}

// Sum over the block: each warp reduces with shuffles, warp leaders park their partial in
// `shared` (at least BLOCK / 32 slots), warp 0 reduces the partials and every thread reads the
// total from shared[0]. The leading barrier lets the caller reuse `shared` across calls.
template <int BLOCK>
__device__ __forceinline__ float block_reduce_sum(float val, float *shared) {
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  val = warp_reduce_sum(val);
  __syncthreads();
  if (lane == 0) shared[warp] = val;
  __syncthreads();
  if (warp == 0) {
    float v = lane < BLOCK / kWarpSize ? shared[lane] : 0.f;
    v = warp_reduce_sum(v);
    if (lane == 0) shared[0] = v;
  }
  __syncthreads();
  return shared[0];
}

template <int BLOCK>
__device__ __forceinline__ float block_reduce_max(float val, float *shared) {
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  val = warp_reduce_max(val);
  __syncthreads();
  if (lane == 0) shared[warp] = val;
  __syncthreads();
  if (warp == 0) {
    float v = lane < BLOCK / kWarpSize ? shared[lane] : -INFINITY;
    v = warp_reduce_max(v);
    if (lane == 0) shared[0] = v;
  }
  __syncthreads();
  return shared[0];
}
