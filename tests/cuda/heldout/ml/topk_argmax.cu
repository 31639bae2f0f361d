// Sampling helpers for decoding: greedy argmax over fp16 logits (block per
// row) and top-k over fp32 scores (warp per row, k in registers).
#include <cfloat>
#include <cmath>
#include <cstdio>
#include "common.cuh"
#include "topk.cuh"

// One block per row.
__global__ void argmax_kernel(int* __restrict__ out_idx, float* __restrict__ out_val,
                              const __half* __restrict__ logits, int vocab) {
  __shared__ float s_val[32];
  __shared__ int s_idx[32];
  const int lane = threadIdx.x % WARP_SIZE;
  const int wid = threadIdx.x / WARP_SIZE;
  const int nwarps = blockDim.x / WARP_SIZE;
  const __half* x = logits + (size_t)blockIdx.x * vocab;

  float best = -INFINITY;
  int best_i = INT_MAX;
  for (int c = threadIdx.x; c < vocab; c += blockDim.x) {
    const float v = __half2float(x[c]);
    if (v > best) {
      best = v;
      best_i = c;
    }
  }
  warp_argmax(best, best_i);
  if (lane == 0) {
    s_val[wid] = best;
    s_idx[wid] = best_i;
  }
  __syncthreads();
  if (wid == 0) {
    best = lane < nwarps ? s_val[lane] : -INFINITY;
    best_i = lane < nwarps ? s_idx[lane] : INT_MAX;
    warp_argmax(best, best_i);
    if (lane == 0) {
      out_idx[blockIdx.x] = best_i;
      out_val[blockIdx.x] = best;
    }
  }
}

constexpr int kTopkWarps = 4;

// One warp per row, blockDim = (32, kTopkWarps). Every lane keeps its own K best
// (sorted) in registers; K rounds of warp argmax pick the row's K best. Lane 0
// stages the picks in shared memory so that the lanes store them together.
template <int K>
__global__ void topk_warp_kernel(float* __restrict__ out_val, int* __restrict__ out_idx,
                                 const float* __restrict__ scores, int rows, int cols) {
  __shared__ float s_val[kTopkWarps][K];
  __shared__ int s_idx[kTopkWarps][K];
  const int lane = threadIdx.x;
  const int w = threadIdx.y;
  const int row = blockIdx.x * kTopkWarps + w;
  if (row >= rows) return;
  const float* x = scores + (size_t)row * cols;

  float tv[K];
  int ti[K];
#pragma unroll
  for (int j = 0; j < K; ++j) {
    tv[j] = -INFINITY;
    ti[j] = INT_MAX;
  }
  for (int c = lane; c < cols; c += WARP_SIZE) {
    const float v = __ldg(&x[c]);
    if (v > tv[K - 1]) {
      int j = K - 1;
      while (j > 0 && tv[j - 1] < v) {
        tv[j] = tv[j - 1];
        ti[j] = ti[j - 1];
        --j;
      }
      tv[j] = v;
      ti[j] = c;
    }
  }

  for (int r = 0; r < K; ++r) {
    float bv = tv[0];
    int bi = ti[0];
    warp_argmax(bv, bi);
    if (lane == 0) {
      s_val[w][r] = bv;
      s_idx[w][r] = bi;
    }
    if (ti[0] == bi) {
#pragma unroll
      for (int j = 0; j < K - 1; ++j) {
        tv[j] = tv[j + 1];
        ti[j] = ti[j + 1];
      }
      tv[K - 1] = -INFINITY;
      ti[K - 1] = INT_MAX;
    }
  }
  __syncwarp();
  if (lane < K) {
    out_val[(size_t)row * K + lane] = s_val[w][lane];
    out_idx[(size_t)row * K + lane] = s_idx[w][lane];
  }
}

// ----------------------------------------------------------------------------

cudaError_t argmax(int* out_idx, float* out_val, const __half* logits, int rows, int vocab,
                   cudaStream_t stream) {
  argmax_kernel<<<rows, 512, 0, stream>>>(out_idx, out_val, logits, vocab);
  return cudaGetLastError();
}

cudaError_t topk(float* out_val, int* out_idx, const float* scores, int rows, int cols, int k,
                 cudaStream_t stream) {
  dim3 block(WARP_SIZE, kTopkWarps);
  dim3 grid(ceil_div(rows, kTopkWarps));
  switch (k) {
    case 1:
      topk_warp_kernel<1><<<grid, block, 0, stream>>>(out_val, out_idx, scores, rows, cols);
      break;
    case 2:
      topk_warp_kernel<2><<<grid, block, 0, stream>>>(out_val, out_idx, scores, rows, cols);
      break;
    case 4:
      topk_warp_kernel<4><<<grid, block, 0, stream>>>(out_val, out_idx, scores, rows, cols);
      break;
    case 8:
      topk_warp_kernel<8><<<grid, block, 0, stream>>>(out_val, out_idx, scores, rows, cols);
      break;
    case 16:
      topk_warp_kernel<16><<<grid, block, 0, stream>>>(out_val, out_idx, scores, rows, cols);
      break;
    default:
      fprintf(stderr, "topk: unsupported k=%d\n", k);
      return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}
