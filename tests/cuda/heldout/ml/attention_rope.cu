// Causal attention scores S = scale * Q K^T and rotary position embedding
// (NeoX layout: rotate the pairs (i, i + d/2)) as a PyTorch extension.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>

namespace {

constexpr int kKeysPerTile = 32;    // threadIdx.x
constexpr int kQueriesPerTile = 8;  // threadIdx.y

// q, k: (B*H, T, HEAD_DIM); scores: (B*H, T, T) in fp32.
// grid = (key tiles, query tiles, B*H), block = (32, 8).
template <typename scalar_t, int HEAD_DIM>
__global__ void attn_scores_kernel(const scalar_t* __restrict__ q,
                                   const scalar_t* __restrict__ k,
                                   float* __restrict__ scores,
                                   int T, float scale) {
  __shared__ float sK[kKeysPerTile][HEAD_DIM + 1];
  __shared__ float sQ[kQueriesPerTile][HEAD_DIM];

  const int bh = blockIdx.z;
  const int k0 = blockIdx.x * kKeysPerTile;
  const int q0 = blockIdx.y * kQueriesPerTile;
  const int qi = q0 + threadIdx.y;
  const int kj = k0 + threadIdx.x;
  float* out = scores + static_cast<int64_t>(bh) * T * T;

  // tile entirely above the diagonal: nothing to compute
  if (k0 > q0 + kQueriesPerTile - 1) {
    if (qi < T && kj < T) out[static_cast<int64_t>(qi) * T + kj] = -INFINITY;
    return;
  }

  const scalar_t* qb = q + static_cast<int64_t>(bh) * T * HEAD_DIM;
  const scalar_t* kb = k + static_cast<int64_t>(bh) * T * HEAD_DIM;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int nthreads = blockDim.x * blockDim.y;

  for (int i = tid; i < kKeysPerTile * HEAD_DIM; i += nthreads) {
    const int r = i / HEAD_DIM;
    const int d = i % HEAD_DIM;
    sK[r][d] = (k0 + r < T) ? static_cast<float>(kb[static_cast<int64_t>(k0 + r) * HEAD_DIM + d]) : 0.f;
  }
  for (int i = tid; i < kQueriesPerTile * HEAD_DIM; i += nthreads) {
    const int r = i / HEAD_DIM;
    const int d = i % HEAD_DIM;
    sQ[r][d] = (q0 + r < T) ? static_cast<float>(qb[static_cast<int64_t>(q0 + r) * HEAD_DIM + d]) : 0.f;
  }
  __syncthreads();

  if (qi >= T || kj >= T) return;
  float acc = 0.f;
#pragma unroll 8
  for (int d = 0; d < HEAD_DIM; ++d) acc += sQ[threadIdx.y][d] * sK[threadIdx.x][d];
  out[static_cast<int64_t>(qi) * T + kj] = (kj <= qi) ? acc * scale : -INFINITY;
}

// In-place rotary embedding. q: (tokens, Hq, D), k: (tokens, Hk, D),
// cos/sin caches: (max_pos, D/2) fp32, positions: (tokens). One token per block.
template <typename scalar_t>
__global__ void rotary_kernel(scalar_t* __restrict__ q, scalar_t* __restrict__ k,
                              const float* __restrict__ cos_cache,
                              const float* __restrict__ sin_cache,
                              const int64_t* __restrict__ positions,
                              int n_q_heads, int n_k_heads, int head_dim) {
  extern __shared__ float s_cs[];  // [cos(0..half) | sin(0..half)]
  const int token = blockIdx.x;
  const int half = head_dim / 2;
  const int64_t pos = positions[token];

  for (int i = threadIdx.x; i < half; i += blockDim.x) {
    s_cs[i] = cos_cache[pos * half + i];
    s_cs[half + i] = sin_cache[pos * half + i];
  }
  __syncthreads();

  scalar_t* qt = q + static_cast<int64_t>(token) * n_q_heads * head_dim;
  for (int p = threadIdx.x; p < n_q_heads * half; p += blockDim.x) {
    const int h = p / half;
    const int i = p % half;
    scalar_t* base = qt + h * head_dim;
    const float x1 = static_cast<float>(base[i]);
    const float x2 = static_cast<float>(base[i + half]);
    const float c = s_cs[i];
    const float s = s_cs[half + i];
    base[i] = static_cast<scalar_t>(x1 * c - x2 * s);
    base[i + half] = static_cast<scalar_t>(x2 * c + x1 * s);
  }

  scalar_t* kt = k + static_cast<int64_t>(token) * n_k_heads * head_dim;
  for (int p = threadIdx.x; p < n_k_heads * half; p += blockDim.x) {
    const int h = p / half;
    const int i = p % half;
    scalar_t* base = kt + h * head_dim;
    const float x1 = static_cast<float>(base[i]);
    const float x2 = static_cast<float>(base[i + half]);
    const float c = s_cs[i];
    const float s = s_cs[half + i];
    base[i] = static_cast<scalar_t>(x1 * c - x2 * s);
    base[i + half] = static_cast<scalar_t>(x2 * c + x1 * s);
  }
}

}  // namespace

torch::Tensor attention_scores(torch::Tensor q, torch::Tensor k) {
  TORCH_CHECK(q.is_cuda() && k.is_cuda(), "q and k must be CUDA tensors");
  TORCH_CHECK(q.dim() == 4, "q must be (B, H, T, D)");
  TORCH_CHECK(q.sizes() == k.sizes(), "q and k must have the same shape");
  q = q.contiguous();
  k = k.contiguous();
  const int B = static_cast<int>(q.size(0));
  const int H = static_cast<int>(q.size(1));
  const int T = static_cast<int>(q.size(2));
  const int D = static_cast<int>(q.size(3));
  auto scores = torch::empty({B, H, T, T}, q.options().dtype(torch::kFloat));
  const float scale = 1.0f / std::sqrt(static_cast<float>(D));

  dim3 block(kKeysPerTile, kQueriesPerTile);
  dim3 grid((T + kKeysPerTile - 1) / kKeysPerTile, (T + kQueriesPerTile - 1) / kQueriesPerTile, B * H);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(q.scalar_type(), "attention_scores", ([&] {
    switch (D) {
      case 64:
        attn_scores_kernel<scalar_t, 64><<<grid, block, 0, stream>>>(
            q.data_ptr<scalar_t>(), k.data_ptr<scalar_t>(), scores.data_ptr<float>(), T, scale);
        break;
      case 128:
        attn_scores_kernel<scalar_t, 128><<<grid, block, 0, stream>>>(
            q.data_ptr<scalar_t>(), k.data_ptr<scalar_t>(), scores.data_ptr<float>(), T, scale);
        break;
      default:
        TORCH_CHECK(false, "attention_scores: unsupported head_dim ", D);
    }
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return scores;
}

void rotary_embedding(torch::Tensor q, torch::Tensor k, torch::Tensor cos_cache,
                      torch::Tensor sin_cache, torch::Tensor positions) {
  TORCH_CHECK(q.is_cuda() && k.is_cuda(), "q and k must be CUDA tensors");
  TORCH_CHECK(q.is_contiguous() && k.is_contiguous(), "q and k must be contiguous");
  TORCH_CHECK(q.dim() == 3 && k.dim() == 3, "q, k must be (tokens, heads, head_dim)");
  TORCH_CHECK(cos_cache.scalar_type() == torch::kFloat && sin_cache.scalar_type() == torch::kFloat,
              "cos/sin caches must be float32");
  TORCH_CHECK(positions.scalar_type() == torch::kLong, "positions must be int64");
  const int tokens = static_cast<int>(q.size(0));
  const int n_q_heads = static_cast<int>(q.size(1));
  const int n_k_heads = static_cast<int>(k.size(1));
  const int head_dim = static_cast<int>(q.size(2));
  TORCH_CHECK(head_dim % 2 == 0, "head_dim must be even");
  TORCH_CHECK(k.size(2) == head_dim, "q and k head_dim differ");
  TORCH_CHECK(cos_cache.size(1) == head_dim / 2, "cos cache has the wrong width");

  const int pairs = std::max(n_q_heads, n_k_heads) * head_dim / 2;
  const int threads = std::min(512, ((pairs + 31) / 32) * 32);
  const size_t smem = head_dim * sizeof(float);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(q.scalar_type(), "rotary_embedding", ([&] {
    rotary_kernel<scalar_t><<<tokens, threads, smem, stream>>>(
        q.data_ptr<scalar_t>(), k.data_ptr<scalar_t>(), cos_cache.data_ptr<float>(),
        sin_cache.data_ptr<float>(), positions.data_ptr<int64_t>(), n_q_heads, n_k_heads,
        head_dim);
  }));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("attention_scores", &attention_scores, "causal attention scores (CUDA)");
  m.def("rotary_embedding", &rotary_embedding, "in-place rotary embedding (CUDA)");
}
