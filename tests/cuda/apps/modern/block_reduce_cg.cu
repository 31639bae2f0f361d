// Global gradient-norm for clipping: every block reduces the squares of its grid-stride slice
// with cooperative groups (warp tiles + cg::reduce), combines the warp partials through shared
// memory and adds its total to the result with one atomic.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
sum_squares_kernel(const float *__restrict__ grad, size_t n, float *__restrict__ total) {
  namespace cg = cooperative_groups;
  __shared__ float partial[BLOCK / 32];
  cg::thread_block block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);

  float acc = 0.f;
  for (size_t i = blockIdx.x * BLOCK + block.thread_rank(); i < n; i += static_cast<size_t>(gridDim.x) * BLOCK)
    acc += grad[i] * grad[i];
  acc = cg::reduce(warp, acc, cg::plus<float>());
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = acc;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    float v = warp.thread_rank() < BLOCK / 32 ? partial[warp.thread_rank()] : 0.f;
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0) atomicAdd(total, v);
  }
}

float grad_norm_squared(const float *grad, size_t n) {
  float *d_total;
  cudaMalloc(&d_total, sizeof(float));
  cudaMemset(d_total, 0, sizeof(float));
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  sum_squares_kernel<256><<<sms * 4, 256>>>(grad, n, d_total);
  float h = 0.f;
  cudaMemcpy(&h, d_total, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_total);
  return h;
}

int main() {
  const size_t n = size_t(1) << 24;
  float *g;
  cudaMalloc(&g, n * sizeof(float));
  printf("%f\n", grad_norm_squared(g, n));
  return 0;
}
