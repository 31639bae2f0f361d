// Token + position embedding (GPT-2 style) forward and backward.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <algorithm>

namespace {

// out[b, t, :] = wte[tokens[b, t], :] + wpe[t, :];  one (b, t) per block.
template <typename scalar_t>
__global__ void embedding_fwd_kernel(scalar_t* __restrict__ out,
                                     const int64_t* __restrict__ tokens,
                                     const scalar_t* __restrict__ wte,
                                     const scalar_t* __restrict__ wpe,
                                     int T, int C) {
  const int bt = blockIdx.x;
  const int t = bt % T;
  const int64_t tok = __ldg(&tokens[bt]);
  const scalar_t* we = wte + tok * C;
  const scalar_t* pe = wpe + static_cast<int64_t>(t) * C;
  scalar_t* o = out + static_cast<int64_t>(bt) * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    o[c] = static_cast<scalar_t>(static_cast<float>(we[c]) + static_cast<float>(pe[c]));
  }
}

constexpr int kTokensPerBlock = 8;

// dwte[tokens[n], :] += dout[n, :].  blockDim = (64, kTokensPerBlock): one
// token per y-row; repeated tokens meet in the atomics.
__global__ void embedding_bwd_kernel(float* __restrict__ dwte,
                                     const int64_t* __restrict__ tokens,
                                     const float* __restrict__ dout,
                                     int n_tokens, int C, int64_t padding_idx) {
  __shared__ int64_t s_tok[kTokensPerBlock];
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int first = blockIdx.x * kTokensPerBlock;
  if (tid < kTokensPerBlock) {
    s_tok[tid] = (first + tid < n_tokens) ? tokens[first + tid] : -1;
  }
  __syncthreads();

  const int64_t tok = s_tok[threadIdx.y];
  if (tok < 0 || tok == padding_idx) return;
  const float* g = dout + static_cast<int64_t>(first + threadIdx.y) * C;
  float* dw = dwte + tok * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) atomicAdd(&dw[c], g[c]);
}

}  // namespace

torch::Tensor embedding_forward(torch::Tensor tokens, torch::Tensor wte, torch::Tensor wpe) {
  TORCH_CHECK(tokens.is_cuda() && wte.is_cuda() && wpe.is_cuda(), "tensors must be on CUDA");
  TORCH_CHECK(tokens.scalar_type() == torch::kLong, "tokens must be int64");
  TORCH_CHECK(tokens.dim() == 2, "tokens must be (B, T)");
  tokens = tokens.contiguous();
  const int B = static_cast<int>(tokens.size(0));
  const int T = static_cast<int>(tokens.size(1));
  const int C = static_cast<int>(wte.size(1));
  TORCH_CHECK(wpe.size(0) >= T && wpe.size(1) == C, "wpe shape mismatch");

  auto out = torch::empty({B, T, C}, wte.options());
  const int threads = std::min(1024, ((C + 31) / 32) * 32);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(wte.scalar_type(), "embedding_fwd", ([&] {
    embedding_fwd_kernel<scalar_t><<<B * T, threads, 0, stream>>>(
        out.data_ptr<scalar_t>(), tokens.data_ptr<int64_t>(), wte.data_ptr<scalar_t>(),
        wpe.data_ptr<scalar_t>(), T, C);
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

torch::Tensor embedding_backward(torch::Tensor grad_out, torch::Tensor tokens, int64_t vocab,
                                 int64_t padding_idx) {
  TORCH_CHECK(grad_out.is_cuda() && tokens.is_cuda(), "tensors must be on CUDA");
  TORCH_CHECK(grad_out.scalar_type() == torch::kFloat, "grad_out must be float32");
  auto g = grad_out.contiguous();
  auto tok = tokens.contiguous().view({-1});
  const int n_tokens = static_cast<int>(tok.numel());
  const int C = static_cast<int>(g.size(-1));
  auto dwte = torch::zeros({vocab, C}, g.options());

  dim3 block(64, kTokensPerBlock);
  dim3 grid((n_tokens + kTokensPerBlock - 1) / kTokensPerBlock);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  embedding_bwd_kernel<<<grid, block, 0, stream>>>(dwte.data_ptr<float>(), tok.data_ptr<int64_t>(),
                                                   g.data_ptr<float>(), n_tokens, C, padding_idx);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return dwte;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &embedding_forward, "token + position embedding forward (CUDA)");
  m.def("backward", &embedding_backward, "token embedding backward (CUDA)");
}
