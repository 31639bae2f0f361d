// PyTorch extension: row softmax, one block per row. The block size is picked on the host from
// the row length and dispatched through a switch to template instances; the dtype switch picks
// float or half storage (math in float). Reductions come from warp_reduce.cuh.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_fp16.h>
#include "warp_reduce.cuh"
#include "vec_types.cuh"

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
softmax_fwd_kernel(const T *__restrict__ x, T *__restrict__ y, int cols) {
  __shared__ float red[BLOCK / kWarpSize];
  const T *xr = x + static_cast<size_t>(blockIdx.x) * cols;
  T *yr = y + static_cast<size_t>(blockIdx.x) * cols;

  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += BLOCK) m = fmaxf(m, to_float(xr[c]));
  m = block_reduce_max<BLOCK>(m, red);

  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) s += __expf(to_float(xr[c]) - m);
  s = block_reduce_sum<BLOCK>(s, red);

  const float inv = 1.f / s;
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    yr[c] = from_float<T>(__expf(to_float(xr[c]) - m) * inv);
}

template <typename T>
static void launch_softmax(const T *x, T *y, int rows, int cols, cudaStream_t stream) {
  const int block = cols >= 2048 ? 512 : cols >= 512 ? 256 : 128;
  switch (block) {
    case 512: softmax_fwd_kernel<T, 512><<<rows, 512, 0, stream>>>(x, y, cols); break;
    case 256: softmax_fwd_kernel<T, 256><<<rows, 256, 0, stream>>>(x, y, cols); break;
    default:  softmax_fwd_kernel<T, 128><<<rows, 128, 0, stream>>>(x, y, cols); break;
  }
}

torch::Tensor softmax_forward(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  TORCH_CHECK(x.dim() == 2, "x must be 2-D");
  x = x.contiguous();
  auto y = torch::empty_like(x);
  const int rows = x.size(0), cols = x.size(1);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  switch (x.scalar_type()) {
    case at::ScalarType::Float:
      launch_softmax<float>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols, stream);
      break;
    case at::ScalarType::Half:
      launch_softmax<__half>(reinterpret_cast<const __half *>(x.data_ptr<at::Half>()),
                             reinterpret_cast<__half *>(y.data_ptr<at::Half>()), rows, cols, stream);
      break;
    default:
      TORCH_CHECK(false, "unsupported dtype");
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &softmax_forward, "row softmax (CUDA)");
}
