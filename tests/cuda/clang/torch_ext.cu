// A PyTorch CUDA extension: bf16 conversion and a WMMA tile product.
#include <torch/extension.h>
#include <cuda_bf16.h>
#include <mma.h>
#include "project/common.h"
using namespace nvcuda;

__global__ void to_bf16(const float *x, __nv_bfloat16 *y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16(x[i]);
}

__global__ void wmma_tile(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

torch::Tensor convert(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  auto y = torch::empty_like(x);
  const int threads = 256;
  const int blocks = (x.numel() + threads - 1) / threads;
  to_bf16<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), (__nv_bfloat16 *)y.data_ptr(), x.numel());
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("convert", &convert, "float to bf16");
}
