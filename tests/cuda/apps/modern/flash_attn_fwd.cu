// Flash-attention-style forward pass (no materialized score matrix): one block per
// (batch*head, tile of BR queries), one thread per query row. K and V are streamed through shared
// tiles of BC rows; each thread keeps its query, running max, running sum and output row in
// registers and rescales them as the online softmax goes.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

template <int HEAD_DIM, int BR, int BC>
__global__ void __launch_bounds__(BR)
flash_attn_fwd_kernel(const float *__restrict__ Q, const float *__restrict__ K,
                      const float *__restrict__ V, float *__restrict__ O, int seq_len, float scale) {
  __shared__ float Ks[BC][HEAD_DIM];
  __shared__ float Vs[BC][HEAD_DIM];
  const int tid = threadIdx.x;
  const size_t head_off = static_cast<size_t>(blockIdx.y) * seq_len * HEAD_DIM;
  const int q_row = blockIdx.x * BR + tid;

  float q[HEAD_DIM];
  float acc[HEAD_DIM] = {0.f};
#pragma unroll
  for (int d = 0; d < HEAD_DIM; ++d)
    q[d] = q_row < seq_len ? Q[head_off + static_cast<size_t>(q_row) * HEAD_DIM + d] * scale : 0.f;
  float row_max = -INFINITY, row_sum = 0.f;

  for (int kv0 = 0; kv0 < seq_len; kv0 += BC) {
    for (int i = tid; i < BC * HEAD_DIM; i += BR) {
      const int r = i / HEAD_DIM, d = i % HEAD_DIM;
      const bool in = kv0 + r < seq_len;
      const size_t g = head_off + static_cast<size_t>(kv0 + r) * HEAD_DIM + d;
      Ks[r][d] = in ? K[g] : 0.f;
      Vs[r][d] = in ? V[g] : 0.f;
    }
    __syncthreads();

    float s[BC];
    float tile_max = -INFINITY;
#pragma unroll
    for (int j = 0; j < BC; ++j) {
      float dot = 0.f;
#pragma unroll
      for (int d = 0; d < HEAD_DIM; ++d) dot += q[d] * Ks[j][d];
      s[j] = kv0 + j < seq_len ? dot : -INFINITY;
      tile_max = fmaxf(tile_max, s[j]);
    }
    const float new_max = fmaxf(row_max, tile_max);
    const float correction = __expf(row_max - new_max);
    row_sum *= correction;
#pragma unroll
    for (int d = 0; d < HEAD_DIM; ++d) acc[d] *= correction;
#pragma unroll
    for (int j = 0; j < BC; ++j) {
      const float p = __expf(s[j] - new_max);
      row_sum += p;
#pragma unroll
      for (int d = 0; d < HEAD_DIM; ++d) acc[d] += p * Vs[j][d];
    }
    row_max = new_max;
    __syncthreads();
  }

  if (q_row < seq_len) {
    const float inv = 1.f / row_sum;
#pragma unroll
    for (int d = 0; d < HEAD_DIM; ++d) O[head_off + static_cast<size_t>(q_row) * HEAD_DIM + d] = acc[d] * inv;
  }
}

// q, k, v, o: [batch * heads, seq_len, head_dim], float32, contiguous.
void flash_attention_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v, torch::Tensor o) {
  const int bh = q.size(0), seq_len = q.size(1), head_dim = q.size(2);
  const float scale = 1.f / sqrtf(static_cast<float>(head_dim));
  constexpr int kBr = 64, kBc = 32;
  const dim3 grid((seq_len + kBr - 1) / kBr, bh);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  switch (head_dim) {
    case 64:
      flash_attn_fwd_kernel<64, kBr, kBc><<<grid, kBr, 0, stream>>>(
          q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(), o.data_ptr<float>(), seq_len, scale);
      break;
    case 128:
      flash_attn_fwd_kernel<128, kBr, kBc><<<grid, kBr, 0, stream>>>(
          q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(), o.data_ptr<float>(), seq_len, scale);
      break;
    default:
      TORCH_CHECK(false, "head_dim must be 64 or 128");
  }
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &flash_attention_forward); }
