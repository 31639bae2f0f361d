// Inclusive prefix sum (cumsum) of a long vector, e.g. the expert offsets of a MoE dispatch:
// a block-level scan built from warp shuffles (each warp scans its 32 values with
// __shfl_up_sync, warp totals go through shared memory and are scanned by warp 0), then a second
// pass adds the scanned block totals. Bug: no barrier after warp 0 has scanned the warp totals;
// the other warps read them right away.
#include <cuda_runtime.h>
#include "warp_reduce.cuh"

template <int BLOCK>
__device__ __forceinline__ float warp_inclusive_scan(float v, int lane) {
#pragma unroll
  for (int off = 1; off < kWarpSize; off <<= 1) {
    const float t = __shfl_up_sync(kFullMask, v, off);
    if (lane >= off) v += t;
  }
  return v;
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
block_scan_kernel(const float *__restrict__ in, float *__restrict__ out, float *__restrict__ block_totals, int n) {
  __shared__ float warp_totals[BLOCK / kWarpSize];
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  const int i = blockIdx.x * BLOCK + threadIdx.x;

  float v = i < n ? in[i] : 0.f;
  v = warp_inclusive_scan<BLOCK>(v, lane);
  if (lane == kWarpSize - 1) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float t = lane < BLOCK / kWarpSize ? warp_totals[lane] : 0.f;
    t = warp_inclusive_scan<BLOCK>(t, lane);
    if (lane < BLOCK / kWarpSize) warp_totals[lane] = t;
  }
  if (warp > 0) v += warp_totals[warp - 1];
  if (i < n) out[i] = v;
  if (threadIdx.x == BLOCK - 1) block_totals[blockIdx.x] = v;
}

__global__ void add_block_offsets(float *__restrict__ out, const float *__restrict__ scanned_totals, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += scanned_totals[blockIdx.x - 1];
}

// n <= 1024 * 1024: the block totals fit one block of the same kernel.
void cumsum(const float *in, float *out, float *totals, float *totals_scanned, float *grand_total, int n,
            cudaStream_t stream) {
  constexpr int B = 1024;
  const int blocks = (n + B - 1) / B;
  block_scan_kernel<B><<<blocks, B, 0, stream>>>(in, out, totals, n);
  block_scan_kernel<B><<<1, B, 0, stream>>>(totals, totals_scanned, grand_total, blocks);
  add_block_offsets<<<blocks, B, 0, stream>>>(out, totals_scanned, n);
}
