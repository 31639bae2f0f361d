// Bias + GELU over a [rows, cols] fp16 activation, 32 columns x 8 row-lanes per block; the
// block's 32 bias values are staged in shared memory by the first row of threads. Bug: the
// barrier that publishes them was written inside the staging branch.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include "vec_types.cuh"

__global__ void bias_gelu_tile(const half *__restrict__ x, const half *__restrict__ bias, half *__restrict__ y,
                               int rows, int cols) {
  __shared__ float s_bias[32];
  const int col = blockIdx.x * 32 + threadIdx.x;
  if (threadIdx.y == 0 && col < cols) {
    s_bias[threadIdx.x] = __half2float(bias[col]);
    __syncthreads();
  }
  for (int r = blockIdx.y * 8 + threadIdx.y; r < rows; r += gridDim.y * 8) {
    if (col < cols) {
      const size_t i = static_cast<size_t>(r) * cols + col;
      y[i] = __float2half(gelu_tanh(__half2float(x[i]) + s_bias[threadIdx.x]));
    }
  }
}

void bias_gelu_fp16(const half *x, const half *bias, half *y, int rows, int cols, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid((cols + 31) / 32, 64);
  bias_gelu_tile<<<grid, block, 0, stream>>>(x, bias, y, rows, cols);
}
