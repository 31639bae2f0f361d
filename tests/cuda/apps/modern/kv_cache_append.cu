// Decode/prefill step of a static (pre-allocated, contiguous) KV cache: the new tokens' keys and
// values are appended at each sequence's current length. Grid: (new tokens, sequences); the
// cache layout is [seq, max_len, kv_heads, head_dim]; half or bf16 by template.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

template <typename T>
__global__ void kv_cache_append(const T *__restrict__ new_k, const T *__restrict__ new_v,
                                T *__restrict__ k_cache, T *__restrict__ v_cache,
                                const int *__restrict__ cache_len, int new_tokens, int max_len,
                                int kv_heads, int head_dim) {
  const int t = blockIdx.x;
  const int seq = blockIdx.y;
  const int pos = cache_len[seq] + t;
  if (pos < 0 || pos >= max_len) return;  // a full cache drops the token (caller checks)
  const int width = kv_heads * head_dim;
  const size_t src = (static_cast<size_t>(seq) * new_tokens + t) * width;
  const size_t dst = (static_cast<size_t>(seq) * max_len + pos) * width;
  for (int i = threadIdx.x; i < width; i += blockDim.x) {
    k_cache[dst + i] = new_k[src + i];
    v_cache[dst + i] = new_v[src + i];
  }
}

template <typename T>
void append_kv(const T *k, const T *v, T *k_cache, T *v_cache, const int *cache_len, int batch, int new_tokens,
               int max_len, int kv_heads, int head_dim, cudaStream_t stream) {
  const dim3 grid(new_tokens, batch);
  kv_cache_append<T><<<grid, 128, 0, stream>>>(k, v, k_cache, v_cache, cache_len, new_tokens, max_len, kv_heads,
                                               head_dim);
}

void append_kv_dispatch(bool bf16, void *k, void *v, void *kc, void *vc, const int *len, int batch, int new_tokens,
                        int max_len, int kv_heads, int head_dim, cudaStream_t stream) {
  if (bf16)
    append_kv<__nv_bfloat16>(static_cast<__nv_bfloat16 *>(k), static_cast<__nv_bfloat16 *>(v),
                             static_cast<__nv_bfloat16 *>(kc), static_cast<__nv_bfloat16 *>(vc), len, batch,
                             new_tokens, max_len, kv_heads, head_dim, stream);
  else
    append_kv<__half>(static_cast<__half *>(k), static_cast<__half *>(v), static_cast<__half *>(kc),
                      static_cast<__half *>(vc), len, batch, new_tokens, max_len, kv_heads, head_dim, stream);
}
