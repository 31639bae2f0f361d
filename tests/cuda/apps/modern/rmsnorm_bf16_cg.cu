// RMSNorm for bf16 activations (LLM inference), one block per token, written with cooperative
// groups: warp sums with cg::reduce, warp leaders park their partial in shared memory, warp 0
// folds the partials and publishes 1/rms. The hidden size is a template parameter.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

template <int HIDDEN, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
rms_norm_bf16(const __nv_bfloat16 *__restrict__ x, const __nv_bfloat16 *__restrict__ weight,
              __nv_bfloat16 *__restrict__ out, float eps) {
  namespace cg = cooperative_groups;
  constexpr int kWarps = BLOCK / 32;
  constexpr int kPerThread = HIDDEN / BLOCK;
  __shared__ float warp_sums[kWarps];
  __shared__ float s_inv_rms;

  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const __nv_bfloat16 *row = x + static_cast<size_t>(blockIdx.x) * HIDDEN;

  float vals[kPerThread];
  float sq = 0.f;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    vals[i] = __bfloat162float(row[i * BLOCK + block.thread_rank()]);
    sq += vals[i] * vals[i];
  }
  sq = cg::reduce(warp, sq, cg::plus<float>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = sq;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    float t = warp.thread_rank() < kWarps ? warp_sums[warp.thread_rank()] : 0.f;
    t = cg::reduce(warp, t, cg::plus<float>());
    if (warp.thread_rank() == 0) s_inv_rms = rsqrtf(t / HIDDEN + eps);
  }
  block.sync();
  const float inv = s_inv_rms;
  __nv_bfloat16 *dst = out + static_cast<size_t>(blockIdx.x) * HIDDEN;
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int c = i * BLOCK + block.thread_rank();
    dst[c] = __float2bfloat16(vals[i] * inv * __bfloat162float(weight[c]));
  }
}

void rms_norm(const __nv_bfloat16 *x, const __nv_bfloat16 *w, __nv_bfloat16 *y, int tokens, int hidden,
              cudaStream_t stream) {
  switch (hidden) {
    case 4096: rms_norm_bf16<4096, 512><<<tokens, 512, 0, stream>>>(x, w, y, 1e-6f); break;
    case 2048: rms_norm_bf16<2048, 256><<<tokens, 256, 0, stream>>>(x, w, y, 1e-6f); break;
    default: break;
  }
}
