// Fused epilogues for the MLP block at inference time:
//   fp16: out = gelu(x + bias) + residual        (half2, grid-stride)
//   bf16: out = gelu(x + bias)                    (128-bit packed loads)
#include <algorithm>
#include "common.cuh"
#include "packed.cuh"

__global__ void bias_gelu_residual_half2_kernel(__half2* __restrict__ out,
                                                const __half2* __restrict__ x,
                                                const __half2* __restrict__ bias,
                                                const __half2* __restrict__ residual,
                                                int n2, int cols2) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += gridDim.x * blockDim.x) {
    const __half2 h = __hadd2(x[i], bias[i % cols2]);
    float2 f = __half22float2(h);
    f.x = gelu_tanh(f.x);
    f.y = gelu_tanh(f.y);
    out[i] = __hadd2(__float22half2_rn(f), residual[i]);
  }
}

constexpr int kColThreads = 32;
constexpr int kRowThreads = 8;

// blockDim = (kColThreads, kRowThreads). Each x-thread owns one 8-wide column
// chunk; the block caches the bias of its 32 chunks once and walks the rows.
__global__ void bias_gelu_bf16_kernel(__nv_bfloat16* __restrict__ out,
                                      const __nv_bfloat16* __restrict__ inp,
                                      const __nv_bfloat16* __restrict__ bias,
                                      int rows, int cols) {
  __shared__ float s_bias[kColThreads * x128::size];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int col0 = (blockIdx.x * kColThreads + tx) * x128::size;

  if (ty == 0) {
    x128 b = x128::constant(__float2bfloat16(0.f));
    if (col0 < cols) b = load128(bias + col0);
#pragma unroll
    for (int k = 0; k < x128::size; ++k) s_bias[tx * x128::size + k] = __bfloat162float(b[k]);
  }
  __syncthreads();
  if (col0 >= cols) return;

  for (int r = blockIdx.y * kRowThreads + ty; r < rows; r += gridDim.y * kRowThreads) {
    const x128 xin = load128(inp + (size_t)r * cols + col0);
    x128 y;
#pragma unroll
    for (int k = 0; k < x128::size; ++k) {
      const float v = __bfloat162float(xin[k]) + s_bias[tx * x128::size + k];
      y[k] = __float2bfloat16(gelu_tanh(v));
    }
    store128(out + (size_t)r * cols + col0, y);
  }
}

// ----------------------------------------------------------------------------

cudaError_t bias_gelu_residual(__half* out, const __half* x, const __half* bias,
                               const __half* residual, int rows, int cols, cudaStream_t stream) {
  if (cols % 2 != 0) return cudaErrorInvalidValue;
  const int n2 = rows * cols / 2;
  const int block = 256;
  const int grid = std::min(ceil_div(n2, block), 2048);
  bias_gelu_residual_half2_kernel<<<grid, block, 0, stream>>>(
      reinterpret_cast<__half2*>(out), reinterpret_cast<const __half2*>(x),
      reinterpret_cast<const __half2*>(bias), reinterpret_cast<const __half2*>(residual), n2,
      cols / 2);
  return cudaGetLastError();
}

cudaError_t bias_gelu_bf16(__nv_bfloat16* out, const __nv_bfloat16* inp,
                           const __nv_bfloat16* bias, int rows, int cols, cudaStream_t stream) {
  if (cols % x128::size != 0) return cudaErrorInvalidValue;
  dim3 block(kColThreads, kRowThreads);
  dim3 grid(ceil_div(cols, kColThreads * x128::size),
            std::min(ceil_div(rows, kRowThreads), 64));
  bias_gelu_bf16_kernel<<<grid, block, 0, stream>>>(out, inp, bias, rows, cols);
  return cudaGetLastError();
}
