// Helpers shared by the reduction kernels.
#pragma once
#include <cuda_fp16.h>

__device__ __forceinline__ float warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
  return v;
}
