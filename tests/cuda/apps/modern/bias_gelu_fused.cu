// Fused bias-add + GELU (tanh approximation) after a linear layer, vectorized with 16-byte
// packets from vec_types.cuh; a grid-stride loop over packets. Template over the element type and
// the packet width, dispatched by a switch on the dtype.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_bf16.h>
#include "vec_types.cuh"

template <typename T, int VEC>
__global__ void __launch_bounds__(256)
bias_gelu_kernel(const T *__restrict__ x, const T *__restrict__ bias, T *__restrict__ y, int64_t n, int cols) {
  const int64_t packets = n / VEC;
  for (int64_t p = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; p < packets;
       p += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int col = static_cast<int>((p * VEC) % cols);
    const Packet<T, VEC> xv = load_packet<T, VEC>(x + p * VEC);
    const Packet<T, VEC> bv = load_packet<T, VEC>(bias + col);
    Packet<T, VEC> out;
#pragma unroll
    for (int i = 0; i < VEC; ++i) out.v[i] = from_float<T>(gelu_tanh(to_float(xv.v[i]) + to_float(bv.v[i])));
    store_packet<T, VEC>(y + p * VEC, out);
  }
}

torch::Tensor bias_gelu(torch::Tensor x, torch::Tensor bias) {
  const int cols = bias.numel();
  const int64_t n = x.numel();
  TORCH_CHECK(cols % 8 == 0, "hidden size must be a multiple of 8");
  auto y = torch::empty_like(x);
  const int threads = 256;
  const int blocks = static_cast<int>(std::min<int64_t>((n / 4 + threads - 1) / threads, 65535));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  switch (x.scalar_type()) {
    case at::ScalarType::Float:
      bias_gelu_kernel<float, 4><<<blocks, threads, 0, stream>>>(x.data_ptr<float>(), bias.data_ptr<float>(),
                                                                 y.data_ptr<float>(), n, cols);
      break;
    case at::ScalarType::Half:
      bias_gelu_kernel<__half, 8><<<blocks, threads, 0, stream>>>(
          reinterpret_cast<const __half *>(x.data_ptr<at::Half>()),
          reinterpret_cast<const __half *>(bias.data_ptr<at::Half>()),
          reinterpret_cast<__half *>(y.data_ptr<at::Half>()), n, cols);
      break;
    case at::ScalarType::BFloat16:
      bias_gelu_kernel<__nv_bfloat16, 8><<<blocks, threads, 0, stream>>>(
          reinterpret_cast<const __nv_bfloat16 *>(x.data_ptr<at::BFloat16>()),
          reinterpret_cast<const __nv_bfloat16 *>(bias.data_ptr<at::BFloat16>()),
          reinterpret_cast<__nv_bfloat16 *>(y.data_ptr<at::BFloat16>()), n, cols);
      break;
    default:
      TORCH_CHECK(false, "unsupported dtype");
  }
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("bias_gelu", &bias_gelu); }
