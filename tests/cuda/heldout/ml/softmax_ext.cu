// Row softmax for 2-D tensors as a PyTorch extension.
// Short rows (<= 1024) go to a warp-per-row kernel that keeps the row in
// registers; long rows get a whole block per row.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cmath>

namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarpSize = 32;

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = kWarpSize / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(kFullMask, v, o));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = kWarpSize / 2; o > 0; o >>= 1) v += __shfl_xor_sync(kFullMask, v, o);
  return v;
}

// One block of BLOCK threads per row.
template <typename scalar_t, int BLOCK>
__global__ void softmax_block_kernel(const scalar_t* __restrict__ input,
                                     scalar_t* __restrict__ output,
                                     int cols) {
  static_assert(BLOCK % kWarpSize == 0 && BLOCK <= 1024, "bad block size");
  constexpr int WARPS = BLOCK / kWarpSize;
  __shared__ float s_warp[WARPS];
  __shared__ float s_result;

  const int tid = threadIdx.x;
  const int lane = tid % kWarpSize;
  const int warp = tid / kWarpSize;
  const scalar_t* x = input + static_cast<int64_t>(blockIdx.x) * cols;
  scalar_t* y = output + static_cast<int64_t>(blockIdx.x) * cols;

  // row max
  float local_max = -INFINITY;
  for (int c = tid; c < cols; c += BLOCK) local_max = fmaxf(local_max, static_cast<float>(x[c]));
  local_max = warp_max(local_max);
  if (lane == 0) s_warp[warp] = local_max;
  __syncthreads();
  if (warp == 0) {
    float m = lane < WARPS ? s_warp[lane] : -INFINITY;
    m = warp_max(m);
    if (lane == 0) s_result = m;
  }
  __syncthreads();
  const float row_max = s_result;

  // sum of exponentials
  float local_sum = 0.f;
  for (int c = tid; c < cols; c += BLOCK) local_sum += __expf(static_cast<float>(x[c]) - row_max);
  local_sum = warp_sum(local_sum);
  if (lane == 0) s_warp[warp] = local_sum;
  __syncthreads();
  if (warp == 0) {
    float s = lane < WARPS ? s_warp[lane] : 0.f;
    s = warp_sum(s);
    if (lane == 0) s_result = s;
  }
  __syncthreads();
  const float inv_sum = 1.f / s_result;

  for (int c = tid; c < cols; c += BLOCK)
    y[c] = static_cast<scalar_t>(__expf(static_cast<float>(x[c]) - row_max) * inv_sum);
}

// One warp per row, blockDim = (32, rows per block). ELEMS values per lane.
template <typename scalar_t, int ELEMS>
__global__ void softmax_warp_kernel(const scalar_t* __restrict__ input,
                                    scalar_t* __restrict__ output,
                                    int rows, int cols) {
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= rows) return;
  const int lane = threadIdx.x;
  const scalar_t* x = input + static_cast<int64_t>(row) * cols;
  scalar_t* y = output + static_cast<int64_t>(row) * cols;

  float v[ELEMS];
#pragma unroll
  for (int i = 0; i < ELEMS; ++i) v[i] = -INFINITY;
  for (int c = lane; c < cols; c += kWarpSize) v[c / kWarpSize] = static_cast<float>(x[c]);

  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < ELEMS; ++i) m = fmaxf(m, v[i]);
  m = warp_max(m);

  float s = 0.f;
#pragma unroll
  for (int i = 0; i < ELEMS; ++i) {
    v[i] = __expf(v[i] - m);
    s += v[i];
  }
  s = warp_sum(s);
  const float inv = 1.f / s;

  for (int c = lane; c < cols; c += kWarpSize) y[c] = static_cast<scalar_t>(v[c / kWarpSize] * inv);
}

template <typename scalar_t>
void launch_warp_softmax(const scalar_t* in, scalar_t* out, int rows, int cols, cudaStream_t stream) {
  constexpr int kRowsPerBlock = 4;
  dim3 block(kWarpSize, kRowsPerBlock);
  dim3 grid((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  const int chunks = (cols + kWarpSize - 1) / kWarpSize;
  if (chunks <= 1) {
    softmax_warp_kernel<scalar_t, 1><<<grid, block, 0, stream>>>(in, out, rows, cols);
  } else if (chunks <= 2) {
    softmax_warp_kernel<scalar_t, 2><<<grid, block, 0, stream>>>(in, out, rows, cols);
  } else if (chunks <= 4) {
    softmax_warp_kernel<scalar_t, 4><<<grid, block, 0, stream>>>(in, out, rows, cols);
  } else if (chunks <= 8) {
    softmax_warp_kernel<scalar_t, 8><<<grid, block, 0, stream>>>(in, out, rows, cols);
  } else if (chunks <= 16) {
    softmax_warp_kernel<scalar_t, 16><<<grid, block, 0, stream>>>(in, out, rows, cols);
  } else {
    softmax_warp_kernel<scalar_t, 32><<<grid, block, 0, stream>>>(in, out, rows, cols);
  }
}

}  // namespace

torch::Tensor softmax_forward(torch::Tensor input) {
  TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
  TORCH_CHECK(input.dim() == 2, "input must be 2-D, got ", input.dim(), " dims");
  auto x = input.contiguous();
  const int rows = static_cast<int>(x.size(0));
  const int cols = static_cast<int>(x.size(1));
  auto out = torch::empty_like(x);
  if (rows == 0 || cols == 0) return out;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();

  if (cols <= 1024) {
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "softmax_warp", ([&] {
      launch_warp_softmax<scalar_t>(x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), rows, cols, stream);
    }));
  } else {
    const int threads = cols >= 8192 ? 1024 : (cols >= 4096 ? 512 : 256);
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "softmax_block", ([&] {
      switch (threads) {
        case 256:
          softmax_block_kernel<scalar_t, 256><<<rows, 256, 0, stream>>>(
              x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), cols);
          break;
        case 512:
          softmax_block_kernel<scalar_t, 512><<<rows, 512, 0, stream>>>(
              x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), cols);
          break;
        default:
          softmax_block_kernel<scalar_t, 1024><<<rows, 1024, 0, stream>>>(
              x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), cols);
          break;
      }
    }));
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &softmax_forward, "Row softmax (CUDA)");
}
