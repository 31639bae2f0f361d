// PyTorch extension: rotary position embedding (NeoX layout: the rotated pairs are (j, j + d/2))
// applied in place to the query and key projections of a batch of tokens. One block per token;
// the dtype is dispatched by a hand-written switch to float / half / bf16 instances.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_bf16.h>
#include "vec_types.cuh"

template <typename T>
__device__ __forceinline__ void rotate_pair(T *head, int j, int half_rot, const float *cos_sin) {
  const float c = cos_sin[j];
  const float s = cos_sin[j + half_rot];
  const float x = to_float(head[j]);
  const float y = to_float(head[j + half_rot]);
  head[j] = from_float<T>(x * c - y * s);
  head[j + half_rot] = from_float<T>(y * c + x * s);
}

template <typename T>
__global__ void rotary_embedding_kernel(const int64_t *__restrict__ positions, T *__restrict__ query,
                                        T *__restrict__ key, const float *__restrict__ cos_sin_cache,
                                        int rot_dim, int num_heads, int num_kv_heads, int head_size) {
  const int token = blockIdx.x;
  const int64_t pos = positions[token];
  const float *cos_sin = cos_sin_cache + pos * rot_dim;
  const int half_rot = rot_dim / 2;

  for (int i = threadIdx.x; i < num_heads * half_rot; i += blockDim.x) {
    T *head = query + (static_cast<int64_t>(token) * num_heads + i / half_rot) * head_size;
    rotate_pair(head, i % half_rot, half_rot, cos_sin);
  }
  for (int i = threadIdx.x; i < num_kv_heads * half_rot; i += blockDim.x) {
    T *head = key + (static_cast<int64_t>(token) * num_kv_heads + i / half_rot) * head_size;
    rotate_pair(head, i % half_rot, half_rot, cos_sin);
  }
}

// query: [tokens, num_heads * head_size], key: [tokens, num_kv_heads * head_size],
// cos_sin_cache: [max_position, rot_dim] (cos half then sin half), positions: [tokens] int64.
void rotary_embedding(torch::Tensor positions, torch::Tensor query, torch::Tensor key,
                      torch::Tensor cos_sin_cache, int64_t head_size) {
  const int tokens = positions.numel();
  const int rot_dim = cos_sin_cache.size(1);
  TORCH_CHECK(rot_dim <= head_size && rot_dim % 2 == 0, "bad rotary dim");
  const int num_heads = query.size(-1) / head_size;
  const int num_kv_heads = key.size(-1) / head_size;
  const dim3 grid(tokens);
  const dim3 block(std::min<int>(num_heads * rot_dim / 2, 512));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t *pos = positions.data_ptr<int64_t>();
  const float *cache = cos_sin_cache.data_ptr<float>();
  switch (query.scalar_type()) {
    case at::ScalarType::Float:
      rotary_embedding_kernel<float><<<grid, block, 0, stream>>>(pos, query.data_ptr<float>(), key.data_ptr<float>(),
                                                                 cache, rot_dim, num_heads, num_kv_heads, head_size);
      break;
    case at::ScalarType::Half:
      rotary_embedding_kernel<__half><<<grid, block, 0, stream>>>(
          pos, reinterpret_cast<__half *>(query.data_ptr<at::Half>()),
          reinterpret_cast<__half *>(key.data_ptr<at::Half>()), cache, rot_dim, num_heads, num_kv_heads, head_size);
      break;
    case at::ScalarType::BFloat16:
      rotary_embedding_kernel<__nv_bfloat16><<<grid, block, 0, stream>>>(
          pos, reinterpret_cast<__nv_bfloat16 *>(query.data_ptr<at::BFloat16>()),
          reinterpret_cast<__nv_bfloat16 *>(key.data_ptr<at::BFloat16>()), cache, rot_dim, num_heads, num_kv_heads,
          head_size);
      break;
    default:
      TORCH_CHECK(false, "unsupported dtype");
  }
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("rotary_embedding", &rotary_embedding); }
