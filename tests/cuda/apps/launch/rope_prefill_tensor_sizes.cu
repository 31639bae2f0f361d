// Rotary position embedding for a prefill batch, as a PyTorch extension: one block per token,
// rotating the query and key heads in place in the half-split layout (pairs (i, i + rot/2) of
// each head). The head count and size come from the tensors' shapes.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

namespace {

__device__ __forceinline__ float2 rotate(float a, float b, float c, float s) {
  return make_float2(a * c - b * s, b * c + a * s);
}

__global__ void rope_prefill_kernel(float *__restrict__ query, float *__restrict__ key,
                                    const float *__restrict__ inv_freq,
                                    const int *__restrict__ pos_ids, int num_heads,
                                    int num_kv_heads, int rot_dim) {
  const int tok = blockIdx.x;
  const int half = rot_dim / 2;
  const float pos = static_cast<float>(pos_ids[tok]);

  float *q_tok = query + static_cast<int64_t>(tok) * num_heads * rot_dim;
  for (int j = threadIdx.x; j < num_heads * half; j += blockDim.x) {
    const int head = j / half;
    const int k = j % half;
    float c, s;
    __sincosf(pos * inv_freq[k], &s, &c);
    float *row = q_tok + head * rot_dim;
    const float2 r = rotate(row[k], row[k + half], c, s);
    row[k] = r.x;
    row[k + half] = r.y;
  }

  float *k_tok = key + static_cast<int64_t>(tok) * num_kv_heads * rot_dim;
  for (int j = threadIdx.x; j < num_kv_heads * half; j += blockDim.x) {
    const int head = j / half;
    const int k = j % half;
    float c, s;
    __sincosf(pos * inv_freq[k], &s, &c);
    float *row = k_tok + head * rot_dim;
    const float2 r = rotate(row[k], row[k + half], c, s);
    row[k] = r.x;
    row[k + half] = r.y;
  }
}

}  // namespace

void rope_prefill(torch::Tensor query, torch::Tensor key, torch::Tensor inv_freq,
                  torch::Tensor pos_ids) {
  TORCH_CHECK(query.is_cuda() && key.is_cuda(), "rope_prefill: CUDA tensors expected");
  TORCH_CHECK(query.dim() == 3 && key.dim() == 3, "rope_prefill: (tokens, heads, dim) expected");
  TORCH_CHECK(query.scalar_type() == at::kFloat, "rope_prefill: float32 only");
  const int tokens = static_cast<int>(query.size(0));
  const int num_heads = static_cast<int>(query.size(1));
  const int num_kv_heads = static_cast<int>(key.size(1));
  const int rot_dim = static_cast<int>(query.size(2));
  TORCH_CHECK(rot_dim % 2 == 0, "rope_prefill: the rotary dimension must be even");
  TORCH_CHECK(key.size(2) == rot_dim, "rope_prefill: query and key dims differ");
  if (tokens == 0) return;

  const int work = std::max(num_heads, num_kv_heads) * (rot_dim / 2);
  const int threads = std::min(1024, std::max(32, work));
  rope_prefill_kernel<<<tokens, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
      query.data_ptr<float>(), key.data_ptr<float>(), inv_freq.data_ptr<float>(),
      pos_ids.data_ptr<int>(), num_heads, num_kv_heads, rot_dim);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("rope_prefill", &rope_prefill, "rotary embedding, prefill (CUDA)");
}
