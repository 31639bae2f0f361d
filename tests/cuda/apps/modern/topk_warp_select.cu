// Mixture-of-experts gating: for each token, softmax over the expert logits and selection of the
// top-k experts with their renormalized weights. One warp per token; the NUM_EXPERTS logits are
// spread over the lanes' registers and the k winners are found by k rounds of a warp arg-max.
#include <cuda_runtime.h>
#include "warp_reduce.cuh"

template <int NUM_EXPERTS, int TOPK>
__global__ void __launch_bounds__(128)
moe_topk_gating(const float *__restrict__ logits, int *__restrict__ topk_ids,
                float *__restrict__ topk_weights, int tokens) {
  constexpr int kPerLane = NUM_EXPERTS / 32;
  const int lane = threadIdx.x % 32;
  const int token = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (token >= tokens) return;

  float p[kPerLane];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < kPerLane; ++i) {
    p[i] = logits[static_cast<size_t>(token) * NUM_EXPERTS + i * 32 + lane];
    m = fmaxf(m, p[i]);
  }
  m = warp_reduce_max(m);
  float sum = 0.f;
#pragma unroll
  for (int i = 0; i < kPerLane; ++i) {
    p[i] = __expf(p[i] - m);
    sum += p[i];
  }
  sum = warp_reduce_sum(sum);

  float picked = 0.f;
#pragma unroll
  for (int k = 0; k < TOPK; ++k) {
    float best = -1.f;
    int best_e = lane;
#pragma unroll
    for (int i = 0; i < kPerLane; ++i)
      if (p[i] > best) { best = p[i]; best_e = i * 32 + lane; }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
      const float ob = __shfl_xor_sync(kFullMask, best, off);
      const int oe = __shfl_xor_sync(kFullMask, best_e, off);
      if (ob > best || (ob == best && oe < best_e)) { best = ob; best_e = oe; }
    }
    if (best_e % 32 == lane) p[best_e / 32] = -1.f;  // the owner drops the winner
    picked += best;
    if (lane == 0) {
      topk_ids[token * TOPK + k] = best_e;
      topk_weights[token * TOPK + k] = best / sum;
    }
  }
  if (lane == 0) {
#pragma unroll
    for (int k = 0; k < TOPK; ++k) topk_weights[token * TOPK + k] *= sum / picked;
  }
}

void moe_gate(const float *logits, int *ids, float *weights, int tokens, int experts, int topk,
              cudaStream_t stream) {
  const int blocks = (tokens + 3) / 4;
  if (experts == 64 && topk == 2) moe_topk_gating<64, 2><<<blocks, 128, 0, stream>>>(logits, ids, weights, tokens);
  else if (experts == 128 && topk == 8) moe_topk_gating<128, 8><<<blocks, 128, 0, stream>>>(logits, ids, weights, tokens);
}
