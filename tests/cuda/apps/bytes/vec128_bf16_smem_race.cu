// PyTorch-extension-style bf16 kernel: each row of 2048 bf16 values is rotated left by one
// 16-byte packet (8 values) through shared memory, moved as uint4 words. Bug: the packet
// index was scaled by 4 (the number of 32-bit lanes of a uint4), not by 8 bf16 values.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_bf16.h>

constexpr int kThreads = 256;
constexpr int kVec = 8;                  // bf16 values per uint4
constexpr int kRow = kThreads * kVec;    // 2048 values per row

__global__ void rotate_row_bf16_kernel(const __nv_bfloat16 *__restrict__ in,
                                       __nv_bfloat16 *__restrict__ out) {
  __shared__ __align__(16) __nv_bfloat16 row[kRow];
  const int t = threadIdx.x;
  const size_t base = static_cast<size_t>(blockIdx.x) * kRow;

  *reinterpret_cast<uint4 *>(&row[t * 4]) = *reinterpret_cast<const uint4 *>(&in[base + t * kVec]);
  __syncthreads();
  const int src = (t + 1) % kThreads;
  *reinterpret_cast<uint4 *>(&out[base + t * kVec]) = *reinterpret_cast<const uint4 *>(&row[src * 4]);
}

void rotate_rows_bf16(const __nv_bfloat16 *in, __nv_bfloat16 *out, cudaStream_t stream) {
  const dim3 grid(4096);
  const dim3 block(kThreads);
  rotate_row_bf16_kernel<<<grid, block, 0, stream>>>(in, out);
}

torch::Tensor rotate_rows(torch::Tensor x) {
  TORCH_CHECK(x.scalar_type() == at::ScalarType::BFloat16 && x.size(0) == 4096 && x.size(1) == kRow,
              "expected a [4096, 2048] bf16 tensor");
  auto y = torch::empty_like(x);
  rotate_rows_bf16(reinterpret_cast<const __nv_bfloat16 *>(x.data_ptr<at::BFloat16>()),
                   reinterpret_cast<__nv_bfloat16 *>(y.data_ptr<at::BFloat16>()),
                   at::cuda::getCurrentCUDAStream());
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("rotate_rows", &rotate_rows, "rotate bf16 rows by one packet"); }
