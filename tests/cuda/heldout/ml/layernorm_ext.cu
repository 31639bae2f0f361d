// LayerNorm forward / backward over the last dimension of a 2-D tensor.
#include <torch/extension.h>
#include <ATen/AccumulateType.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <vector>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) \
  CHECK_CUDA(x);       \
  CHECK_CONTIGUOUS(x)

namespace {

__device__ __forceinline__ float warp_reduce_sum(float val) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) val += __shfl_xor_sync(0xffffffff, val, mask);
  return val;
}

// One block per row. Dynamic shared memory: one float per warp.
template <typename scalar_t>
__global__ void layer_norm_fwd_kernel(const scalar_t* __restrict__ x,
                                      const scalar_t* __restrict__ gamma,
                                      const scalar_t* __restrict__ beta,
                                      scalar_t* __restrict__ y,
                                      float* __restrict__ mean_out,
                                      float* __restrict__ rstd_out,
                                      int cols, float eps) {
  using acc_t = at::acc_type<scalar_t, true>;
  extern __shared__ float s_part[];
  const int row = blockIdx.x;
  const int tid = threadIdx.x;
  const int lane = tid & 31;
  const int wid = tid >> 5;
  const int nwarps = blockDim.x >> 5;
  const scalar_t* xr = x + static_cast<int64_t>(row) * cols;
  scalar_t* yr = y + static_cast<int64_t>(row) * cols;

  float sum = 0.f;
  for (int c = tid; c < cols; c += blockDim.x) sum += static_cast<float>(xr[c]);
  sum = warp_reduce_sum(sum);
  if (lane == 0) s_part[wid] = sum;
  __syncthreads();
  float total = 0.f;
  for (int w = 0; w < nwarps; ++w) total += s_part[w];
  const float mean = total / cols;

  float sq = 0.f;
  for (int c = tid; c < cols; c += blockDim.x) {
    const float d = static_cast<float>(xr[c]) - mean;
    sq += d * d;
  }
  sq = warp_reduce_sum(sq);
  if (lane == 0) s_part[wid] = sq;
  __syncthreads();
  float var = 0.f;
  for (int w = 0; w < nwarps; ++w) var += s_part[w];
  const float rstd = rsqrtf(var / cols + eps);

  if (tid == 0) {
    mean_out[row] = mean;
    rstd_out[row] = rstd;
  }
  for (int c = tid; c < cols; c += blockDim.x) {
    const acc_t xhat = static_cast<acc_t>((static_cast<float>(xr[c]) - mean) * rstd);
    yr[c] = static_cast<scalar_t>(xhat * static_cast<acc_t>(gamma[c]) + static_cast<acc_t>(beta[c]));
  }
}

constexpr int kBwdThreads = 256;
constexpr int kBwdWarps = kBwdThreads / 32;

// One block per row: dx for the row, plus dgamma/dbeta accumulated across rows.
template <typename scalar_t>
__global__ void layer_norm_bwd_kernel(const scalar_t* __restrict__ dy,
                                      const scalar_t* __restrict__ x,
                                      const scalar_t* __restrict__ gamma,
                                      const float* __restrict__ mean,
                                      const float* __restrict__ rstd,
                                      scalar_t* __restrict__ dx,
                                      float* __restrict__ dgamma,
                                      float* __restrict__ dbeta,
                                      int cols) {
  __shared__ float s_sum_g[kBwdWarps];
  __shared__ float s_sum_gx[kBwdWarps];
  const int row = blockIdx.x;
  const int lane = threadIdx.x % 32;
  const int wid = threadIdx.x / 32;
  const int64_t off = static_cast<int64_t>(row) * cols;
  const float mu = mean[row];
  const float rs = rstd[row];

  float sum_g = 0.f;
  float sum_gx = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float g = static_cast<float>(dy[off + c]);
    const float xhat = (static_cast<float>(x[off + c]) - mu) * rs;
    const float gg = g * static_cast<float>(gamma[c]);
    sum_g += gg;
    sum_gx += gg * xhat;
    atomicAdd(&dgamma[c], g * xhat);
    atomicAdd(&dbeta[c], g);
  }
  sum_g = warp_reduce_sum(sum_g);
  sum_gx = warp_reduce_sum(sum_gx);
  if (lane == 0) {
    s_sum_g[wid] = sum_g;
    s_sum_gx[wid] = sum_gx;
  }
  __syncthreads();
  if (wid == 0) {
    float a = lane < kBwdWarps ? s_sum_g[lane] : 0.f;
    float b = lane < kBwdWarps ? s_sum_gx[lane] : 0.f;
    a = warp_reduce_sum(a);
    b = warp_reduce_sum(b);
    if (lane == 0) {
      s_sum_g[0] = a;
      s_sum_gx[0] = b;
    }
  }
  __syncthreads();
  const float mean_g = s_sum_g[0] / cols;
  const float mean_gx = s_sum_gx[0] / cols;

  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float g = static_cast<float>(dy[off + c]) * static_cast<float>(gamma[c]);
    const float xhat = (static_cast<float>(x[off + c]) - mu) * rs;
    dx[off + c] = static_cast<scalar_t>(rs * (g - mean_g - xhat * mean_gx));
  }
}

}  // namespace

std::vector<torch::Tensor> layer_norm_forward(torch::Tensor input, torch::Tensor gamma,
                                              torch::Tensor beta, double eps) {
  CHECK_INPUT(input);
  CHECK_INPUT(gamma);
  CHECK_INPUT(beta);
  TORCH_CHECK(input.dim() == 2, "expected a 2-D input");
  const int rows = static_cast<int>(input.size(0));
  const int cols = static_cast<int>(input.size(1));
  TORCH_CHECK(gamma.numel() == cols && beta.numel() == cols, "gamma/beta size mismatch");

  auto y = torch::empty_like(input);
  auto opts = input.options().dtype(torch::kFloat);
  auto mean = torch::empty({rows}, opts);
  auto rstd = torch::empty({rows}, opts);

  const int threads = cols >= 2048 ? 512 : 128;
  const size_t smem = (threads / 32) * sizeof(float);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "layer_norm_fwd", ([&] {
    layer_norm_fwd_kernel<scalar_t><<<rows, threads, smem, stream>>>(
        input.data_ptr<scalar_t>(), gamma.data_ptr<scalar_t>(), beta.data_ptr<scalar_t>(),
        y.data_ptr<scalar_t>(), mean.data_ptr<float>(), rstd.data_ptr<float>(), cols,
        static_cast<float>(eps));
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {y, mean, rstd};
}

std::vector<torch::Tensor> layer_norm_backward(torch::Tensor grad_out, torch::Tensor input,
                                               torch::Tensor gamma, torch::Tensor mean,
                                               torch::Tensor rstd) {
  CHECK_INPUT(grad_out);
  CHECK_INPUT(input);
  CHECK_INPUT(gamma);
  CHECK_INPUT(mean);
  CHECK_INPUT(rstd);
  const int rows = static_cast<int>(input.size(0));
  const int cols = static_cast<int>(input.size(1));

  auto dx = torch::empty_like(input);
  auto dgamma = torch::zeros({cols}, input.options().dtype(torch::kFloat));
  auto dbeta = torch::zeros({cols}, input.options().dtype(torch::kFloat));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "layer_norm_bwd", ([&] {
    layer_norm_bwd_kernel<scalar_t><<<rows, kBwdThreads, 0, stream>>>(
        grad_out.data_ptr<scalar_t>(), input.data_ptr<scalar_t>(), gamma.data_ptr<scalar_t>(),
        mean.data_ptr<float>(), rstd.data_ptr<float>(), dx.data_ptr<scalar_t>(),
        dgamma.data_ptr<float>(), dbeta.data_ptr<float>(), cols);
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {dx, dgamma.to(gamma.scalar_type()), dbeta.to(gamma.scalar_type())};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &layer_norm_forward, "LayerNorm forward (CUDA)");
  m.def("backward", &layer_norm_backward, "LayerNorm backward (CUDA)");
}
