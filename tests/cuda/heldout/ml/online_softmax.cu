// Softmax forward (online, one warp per row) and backward (one block per row),
// written in the style of a plain C training codebase.
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

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// ----------------------------------------------------------------------------
// kernels

// out[n, :] = softmax(inp[n, :]); one warp per row, single pass for max and sum.
__global__ void softmax_forward_online_kernel(float* __restrict__ out, const float* __restrict__ inp,
                                              int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= N) return;

  const float4* x4 = reinterpret_cast<const float4*>(inp + (size_t)row * C);
  float4* y4 = reinterpret_cast<float4*>(out + (size_t)row * C);
  const int C4 = C / 4;

  float maxval = -INFINITY;
  float sumval = 0.0f;
  for (int i = warp.thread_rank(); i < C4; i += warp.size()) {
    const float4 v = __ldg(&x4[i]);
    const float m = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    const float newmax = fmaxf(maxval, m);
    sumval = sumval * expf(maxval - newmax) + expf(v.x - newmax) + expf(v.y - newmax) +
             expf(v.z - newmax) + expf(v.w - newmax);
    maxval = newmax;
  }
  const float gmax = cg::reduce(warp, maxval, cg::greater<float>());
  sumval *= expf(maxval - gmax);
  const float gsum = cg::reduce(warp, sumval, cg::plus<float>());
  const float norm = 1.0f / gsum;

  for (int i = warp.thread_rank(); i < C4; i += warp.size()) {
    const float4 v = __ldg(&x4[i]);
    float4 r;
    r.x = expf(v.x - gmax) * norm;
    r.y = expf(v.y - gmax) * norm;
    r.z = expf(v.z - gmax) * norm;
    r.w = expf(v.w - gmax) * norm;
    y4[i] = r;
  }
}

// dinp = out * (dout - sum(dout * out)); one block per row.
__global__ void softmax_backward_kernel(float* __restrict__ dinp, const float* __restrict__ dout,
                                        const float* __restrict__ out, int C) {
  extern __shared__ float shared[];  // one float per warp
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int lane = threadIdx.x % 32;
  const int warp_id = threadIdx.x / 32;
  const int num_warps = blockDim.x / 32;

  const float* dy = dout + (size_t)blockIdx.x * C;
  const float* y = out + (size_t)blockIdx.x * C;
  float* dx = dinp + (size_t)blockIdx.x * C;

  float dot = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x) dot += dy[i] * y[i];
  dot = cg::reduce(warp, dot, cg::plus<float>());
  if (lane == 0) shared[warp_id] = dot;
  __syncthreads();

  float total = 0.0f;
  for (int w = 0; w < num_warps; w++) total += shared[w];

  for (int i = threadIdx.x; i < C; i += blockDim.x) dx[i] = y[i] * (dy[i] - total);
}

// ----------------------------------------------------------------------------
// launchers

void softmax_forward(float* out, const float* inp, int N, int C, int block_size) {
  assert(C % 4 == 0);
  assert(block_size % 32 == 0);
  const int grid_size = ceil_div(N * 32, block_size);
  softmax_forward_online_kernel<<<grid_size, block_size>>>(out, inp, N, C);
  cudaCheck(cudaGetLastError());
}

void softmax_backward(float* dinp, const float* dout, const float* out, int N, int C) {
  const int block_size = 512;
  const size_t smem = block_size / 32 * sizeof(float);
  softmax_backward_kernel<<<N, block_size, smem>>>(dinp, dout, out, C);
  cudaCheck(cudaGetLastError());
}

// ----------------------------------------------------------------------------

static float* make_random(size_t n) {
  float* p = (float*)malloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) p[i] = ((float)rand() / RAND_MAX) * 2.0f - 1.0f;
  return p;
}

int main(int argc, char** argv) {
  const int N = 8 * 1024;
  const int C = 50304;
  float* h_inp = make_random((size_t)N * C);
  float* h_dout = make_random((size_t)N * C);

  float *d_inp, *d_out, *d_dout, *d_dinp;
  cudaCheck(cudaMalloc(&d_inp, (size_t)N * C * sizeof(float)));
  cudaCheck(cudaMalloc(&d_out, (size_t)N * C * sizeof(float)));
  cudaCheck(cudaMalloc(&d_dout, (size_t)N * C * sizeof(float)));
  cudaCheck(cudaMalloc(&d_dinp, (size_t)N * C * sizeof(float)));
  cudaCheck(cudaMemcpy(d_inp, h_inp, (size_t)N * C * sizeof(float), cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(d_dout, h_dout, (size_t)N * C * sizeof(float), cudaMemcpyHostToDevice));

  int block_sizes[] = {64, 128, 256, 512};
  for (int j = 0; j < 4; j++) {
    softmax_forward(d_out, d_inp, N, C, block_sizes[j]);
  }
  softmax_backward(d_dinp, d_dout, d_out, N, C);
  cudaCheck(cudaDeviceSynchronize());
  printf("ok\n");

  free(h_inp);
  free(h_dout);
  cudaCheck(cudaFree(d_inp));
  cudaCheck(cudaFree(d_out));
  cudaCheck(cudaFree(d_dout));
  cudaCheck(cudaFree(d_dinp));
  return 0;
}
