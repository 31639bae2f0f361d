// PyTorch extension: softmax over short rows (attention scores), one warp per row, the row kept
// in registers (COLS / 32 values per lane). Four warps per block; the row length is a template
// parameter chosen by a switch, as fused-softmax kernels do.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include "warp_reduce.cuh"

constexpr int kWarpsPerBlock = 4;

template <int COLS>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
warp_softmax_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, float scale) {
  constexpr int kPerLane = COLS / kWarpSize;
  const int lane = threadIdx.x;
  const int row = blockIdx.x * kWarpsPerBlock + threadIdx.y;
  if (row >= rows) return;
  const float *src = in + static_cast<size_t>(row) * COLS;
  float *dst = out + static_cast<size_t>(row) * COLS;

  float v[kPerLane];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < kPerLane; ++i) {
    v[i] = src[i * kWarpSize + lane] * scale;
    m = fmaxf(m, v[i]);
  }
  m = warp_reduce_max(m);
  float sum = 0.f;
#pragma unroll
  for (int i = 0; i < kPerLane; ++i) {
    v[i] = __expf(v[i] - m);
    sum += v[i];
  }
  sum = warp_reduce_sum(sum);
  const float inv = 1.f / sum;
#pragma unroll
  for (int i = 0; i < kPerLane; ++i) dst[i * kWarpSize + lane] = v[i] * inv;
}

torch::Tensor scaled_softmax(torch::Tensor scores, double scale) {
  TORCH_CHECK(scores.is_cuda() && scores.is_contiguous(), "contiguous CUDA tensor expected");
  const int cols = scores.size(-1);
  const int rows = scores.numel() / cols;
  auto out = torch::empty_like(scores);
  const dim3 block(32, kWarpsPerBlock);
  const dim3 grid((rows + kWarpsPerBlock - 1) / kWarpsPerBlock);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const float *src = scores.data_ptr<float>();
  float *dst = out.data_ptr<float>();
  switch (cols) {
    case 128:  warp_softmax_kernel<128><<<grid, block, 0, stream>>>(src, dst, rows, scale); break;
    case 256:  warp_softmax_kernel<256><<<grid, block, 0, stream>>>(src, dst, rows, scale); break;
    case 512:  warp_softmax_kernel<512><<<grid, block, 0, stream>>>(src, dst, rows, scale); break;
    case 1024: warp_softmax_kernel<1024><<<grid, block, 0, stream>>>(src, dst, rows, scale); break;
    default: TORCH_CHECK(false, "row length must be 128, 256, 512 or 1024");
  }
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scaled_softmax", &scaled_softmax); }
