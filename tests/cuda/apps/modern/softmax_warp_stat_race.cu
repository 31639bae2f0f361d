// Log-softmax over vocabulary rows for a sampling step: one warp per row, the warp's lane 0
// publishes the row's max and log-sum in a per-warp shared slot that the other lanes read.
// Bug: the code assumes the 32 lanes run in lock-step (pre-Volta habit) and has no __syncwarp()
// between lane 0's store and the other lanes' loads.
#include <cuda_runtime.h>
#include <cstdio>
#include "warp_reduce.cuh"

constexpr int WARPS = 8;

struct RowStat {
  float max;
  float log_sum;
};

__global__ void __launch_bounds__(WARPS * 32)
log_softmax_rows(const float *__restrict__ logits, float *__restrict__ logp, int rows, int vocab) {
  __shared__ RowStat stat[WARPS];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int row = blockIdx.x * WARPS + warp;
  if (row >= rows) return;
  const float *x = logits + static_cast<size_t>(row) * vocab;

  float m = -INFINITY;
  for (int c = lane; c < vocab; c += 32) m = fmaxf(m, x[c]);
  m = warp_reduce_max(m);
  float s = 0.f;
  for (int c = lane; c < vocab; c += 32) s += __expf(x[c] - m);
  s = warp_reduce_sum(s);
  if (lane == 0) {
    stat[warp].max = m;
    stat[warp].log_sum = __logf(s);
  }
  const float shift = stat[warp].max + stat[warp].log_sum;
  float *y = logp + static_cast<size_t>(row) * vocab;
  for (int c = lane; c < vocab; c += 32) y[c] = x[c] - shift;
}

int main() {
  const int rows = 64, vocab = 32000;
  float *logits, *logp;
  cudaMalloc(&logits, sizeof(float) * rows * vocab);
  cudaMalloc(&logp, sizeof(float) * rows * vocab);
  log_softmax_rows<<<(rows + WARPS - 1) / WARPS, WARPS * 32>>>(logits, logp, rows, vocab);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(logits);
  cudaFree(logp);
  return 0;
}
