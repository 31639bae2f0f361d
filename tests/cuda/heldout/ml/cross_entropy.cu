// Fused softmax + cross-entropy loss + logits gradient for the classifier
// layer, in the style of a plain C training codebase. One block per (b, t).
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define cudaCheck(err) (cuda_check((err), __FILE__, __LINE__))
static void cuda_check(cudaError_t error, const char* file, int line) {
  if (error != cudaSuccess) {
    printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
    exit(EXIT_FAILURE);
  }
}

constexpr int CE_BLOCK = 256;
constexpr int CE_WARPS = CE_BLOCK / 32;

// logits: (N, Vp) with the real vocabulary in the first V columns.
// Writes losses[n] and overwrites dlogits (N, Vp) with dloss * (softmax - onehot).
__global__ void fused_classifier_kernel(float* __restrict__ dlogits, float* __restrict__ losses,
                                        const float* __restrict__ logits,
                                        const int* __restrict__ targets, float dloss, int V,
                                        int Vp) {
  __shared__ float shm[CE_WARPS];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int row = blockIdx.x;
  const float* x = logits + (size_t)row * Vp;

  // per-thread online max / sum
  float m = -INFINITY;
  float s = 0.0f;
  for (int i = threadIdx.x; i < V; i += blockDim.x) {
    const float v = x[i];
    const float nm = fmaxf(m, v);
    s = s * expf(m - nm) + expf(v - nm);
    m = nm;
  }
  const float warp_m = cg::reduce(warp, m, cg::greater<float>());
  s = (m == -INFINITY) ? 0.0f : s * expf(m - warp_m);
  const float warp_s = cg::reduce(warp, s, cg::plus<float>());

  if (warp.thread_rank() == 0) shm[warp.meta_group_rank()] = warp_m;
  block.sync();
  float row_max = -INFINITY;
  for (int w = 0; w < CE_WARPS; w++) row_max = fmaxf(row_max, shm[w]);
  block.sync();
  if (warp.thread_rank() == 0) shm[warp.meta_group_rank()] = warp_s * expf(warp_m - row_max);
  block.sync();
  float row_sum = 0.0f;
  for (int w = 0; w < CE_WARPS; w++) row_sum += shm[w];
  const float inv_sum = 1.0f / row_sum;

  const int target = targets[row];
  if (threadIdx.x == 0) losses[row] = -(x[target] - row_max) + logf(row_sum);

  float* dx = dlogits + (size_t)row * Vp;
  for (int i = threadIdx.x; i < Vp; i += blockDim.x) {
    float g = 0.0f;
    if (i < V) {
      const float p = expf(x[i] - row_max) * inv_sum;
      g = (p - (i == target ? 1.0f : 0.0f)) * dloss;
    }
    dx[i] = g;
  }
}

void fused_classifier(float* dlogits, float* losses, const float* logits, const int* targets,
                      int B, int T, int V, int Vp) {
  const int N = B * T;
  const float dloss = 1.0f / (float)N;  // mean over all positions
  fused_classifier_kernel<<<N, CE_BLOCK>>>(dlogits, losses, logits, targets, dloss, V, Vp);
  cudaCheck(cudaGetLastError());
}

int main(int argc, char** argv) {
  const int B = 8, T = 1024, V = 50257, Vp = 50304;
  const size_t n_logits = (size_t)B * T * Vp;
  float* h_logits = (float*)malloc(n_logits * sizeof(float));
  int* h_targets = (int*)malloc((size_t)B * T * sizeof(int));
  for (size_t i = 0; i < n_logits; i++) h_logits[i] = ((float)rand() / RAND_MAX) * 8.0f - 4.0f;
  for (int i = 0; i < B * T; i++) h_targets[i] = rand() % V;

  float *d_logits, *d_dlogits, *d_losses;
  int* d_targets;
  cudaCheck(cudaMalloc(&d_logits, n_logits * sizeof(float)));
  cudaCheck(cudaMalloc(&d_dlogits, n_logits * sizeof(float)));
  cudaCheck(cudaMalloc(&d_losses, (size_t)B * T * sizeof(float)));
  cudaCheck(cudaMalloc(&d_targets, (size_t)B * T * sizeof(int)));
  cudaCheck(cudaMemcpy(d_logits, h_logits, n_logits * sizeof(float), cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(d_targets, h_targets, (size_t)B * T * sizeof(int), cudaMemcpyHostToDevice));

  fused_classifier(d_dlogits, d_losses, d_logits, d_targets, B, T, V, Vp);
  cudaCheck(cudaDeviceSynchronize());

  float* h_losses = (float*)malloc((size_t)B * T * sizeof(float));
  cudaCheck(cudaMemcpy(h_losses, d_losses, (size_t)B * T * sizeof(float), cudaMemcpyDeviceToHost));
  double mean_loss = 0.0;
  for (int i = 0; i < B * T; i++) mean_loss += h_losses[i];
  printf("mean loss %f\n", mean_loss / (B * T));

  free(h_logits);
  free(h_targets);
  free(h_losses);
  cudaCheck(cudaFree(d_logits));
  cudaCheck(cudaFree(d_dlogits));
  cudaCheck(cudaFree(d_losses));
  cudaCheck(cudaFree(d_targets));
  return 0;
}
