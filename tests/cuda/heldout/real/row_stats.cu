// Row-wise normalisation of a rows x cols matrix (layer-norm style):
//   rowStats<BLOCK>: one block per row, mean and 1/stddev via warp-tile reductions
//   normalizeRows:   y = (x - mean) * rstd * gamma + beta
// The block size is picked from the row length by a switch.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>

namespace cg = cooperative_groups;

#define CUDA_CHECK(expr)                                                       \
  do {                                                                         \
    cudaError_t _e = (expr);                                                   \
    if (_e != cudaSuccess) {                                                   \
      fprintf(stderr, "CUDA error '%s' at %s:%d\n", cudaGetErrorString(_e),    \
              __FILE__, __LINE__);                                             \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

constexpr int kWarp = 32;

template <typename Group>
__device__ __forceinline__ float groupSum(Group g, float v) {
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset >>= 1) v += g.shfl_xor(v, offset);
  return v;
}

template <int BLOCK>
__global__ void rowStats(const float *__restrict__ x, float *__restrict__ mean,
                         float *__restrict__ rstd, int cols, float eps) {
  static_assert(BLOCK % kWarp == 0 && BLOCK <= 1024, "bad block size");
  constexpr int NUM_WARPS = BLOCK / kWarp;

  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<kWarp> warp = cg::tiled_partition<kWarp>(block);

  __shared__ float s_sum[NUM_WARPS];
  __shared__ float s_sq[NUM_WARPS];

  const float *row = x + (size_t)blockIdx.x * cols;
  const int lane = warp.thread_rank();
  const int wid = threadIdx.x / kWarp;

  float sum = 0.f, sq = 0.f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    float v = __ldg(row + c);
    sum += v;
    sq += v * v;
  }
  sum = groupSum(warp, sum);
  sq = groupSum(warp, sq);

  if (lane == 0) {
    s_sum[wid] = sum;
    s_sq[wid] = sq;
  }
  block.sync();

  if (wid == 0) {
    sum = (lane < NUM_WARPS) ? s_sum[lane] : 0.f;
    sq = (lane < NUM_WARPS) ? s_sq[lane] : 0.f;
    sum = groupSum(warp, sum);
    sq = groupSum(warp, sq);
    if (lane == 0) {
      float m = sum / cols;
      float var = fmaxf(sq / cols - m * m, 0.f);
      mean[blockIdx.x] = m;
      rstd[blockIdx.x] = rsqrtf(var + eps);
    }
  }
}

__global__ void normalizeRows(const float *__restrict__ x, const float *__restrict__ mean,
                              const float *__restrict__ rstd, const float *__restrict__ gamma,
                              const float *__restrict__ beta, float *__restrict__ y, int rows,
                              int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y;
  if (c >= cols || r >= rows) return;
  const size_t i = (size_t)r * cols + c;
  y[i] = (x[i] - mean[r]) * rstd[r] * gamma[c] + beta[c];
}

static int pickBlock(int cols) {
  if (cols <= 128) return 128;
  if (cols <= 512) return 256;
  if (cols <= 2048) return 512;
  return 1024;
}

int main(int argc, char **argv) {
  const int rows = (argc > 1) ? std::atoi(argv[1]) : 4096;
  const int cols = (argc > 2) ? std::atoi(argv[2]) : 768;
  const float eps = 1e-5f;
  if (rows <= 0 || cols <= 0) {
    fprintf(stderr, "usage: %s rows cols\n", argv[0]);
    return EXIT_FAILURE;
  }

  std::vector<float> h_x((size_t)rows * cols), h_gamma(cols), h_beta(cols), h_y(h_x.size());
  for (auto &v : h_x) v = (float)rand() / RAND_MAX * 4.f - 2.f;
  for (int c = 0; c < cols; ++c) {
    h_gamma[c] = 1.f + 0.01f * (c % 7);
    h_beta[c] = 0.001f * (c % 5);
  }

  float *d_x, *d_y, *d_mean, *d_rstd, *d_gamma, *d_beta;
  CUDA_CHECK(cudaMalloc(&d_x, h_x.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, h_x.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_mean, rows * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_rstd, rows * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_gamma, cols * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_beta, cols * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), h_x.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_gamma, h_gamma.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_beta, h_beta.data(), cols * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));

  const int block = pickBlock(cols);
  switch (block) {
    case 128: rowStats<128><<<rows, 128>>>(d_x, d_mean, d_rstd, cols, eps); break;
    case 256: rowStats<256><<<rows, 256>>>(d_x, d_mean, d_rstd, cols, eps); break;
    case 512: rowStats<512><<<rows, 512>>>(d_x, d_mean, d_rstd, cols, eps); break;
    case 1024: rowStats<1024><<<rows, 1024>>>(d_x, d_mean, d_rstd, cols, eps); break;
    default: fprintf(stderr, "unexpected block size\n"); return EXIT_FAILURE;
  }
  CUDA_CHECK(cudaGetLastError());

  dim3 nthreads(256);
  dim3 ngrid((cols + nthreads.x - 1) / nthreads.x, rows);
  normalizeRows<<<ngrid, nthreads>>>(d_x, d_mean, d_rstd, d_gamma, d_beta, d_y, rows, cols);
  CUDA_CHECK(cudaGetLastError());

  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaMemcpy(h_y.data(), d_y, h_y.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // check a few rows on the host
  double maxErr = 0.0;
  for (int r = 0; r < rows; r += std::max(1, rows / 16)) {
    double s = 0, s2 = 0;
    for (int c = 0; c < cols; ++c) {
      double v = h_x[(size_t)r * cols + c];
      s += v;
      s2 += v * v;
    }
    double m = s / cols, var = s2 / cols - m * m;
    for (int c = 0; c < cols; ++c) {
      double ref = (h_x[(size_t)r * cols + c] - m) / sqrt(var + eps) * h_gamma[c] + h_beta[c];
      maxErr = std::max(maxErr, fabs(ref - h_y[(size_t)r * cols + c]));
    }
  }
  printf("rows=%d cols=%d block=%d time=%.3f ms max err=%.2e\n", rows, cols, block, ms, maxErr);

  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_mean);
  cudaFree(d_rstd);
  cudaFree(d_gamma);
  cudaFree(d_beta);
  return maxErr < 1e-3 ? EXIT_SUCCESS : EXIT_FAILURE;
}
