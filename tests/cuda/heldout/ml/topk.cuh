// Warp-level (value, index) selection used by the sampling kernels.
#pragma once

#include <climits>
#include "common.cuh"

// Larger value wins; on equal values the smaller index wins. The rule is
// symmetric, so after a butterfly every lane holds the same pair.
__device__ __forceinline__ void keep_better(float& v, int& i, float other_v, int other_i) {
  if (other_v > v || (other_v == v && other_i < i)) {
    v = other_v;
    i = other_i;
  }
}

__device__ __forceinline__ void warp_argmax(float& v, int& i) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1) {
    const float other_v = __shfl_xor_sync(FULL_MASK, v, offset);
    const int other_i = __shfl_xor_sync(FULL_MASK, i, offset);
    keep_better(v, i, other_v, other_i);
  }
}
