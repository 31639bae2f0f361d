// Rotary embedding (GPT-J layout: interleaved pairs (2j, 2j+1), rotating the whole head) for a
// decode step, on packed half2 pairs. Each block first copies its token's cos/sin row into
// dynamic shared memory (sized by the launch), then rotates every head of q and k. Bug: no
// barrier between staging the row and using it.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void rope_gptj_kernel(const int *__restrict__ positions, half2 *__restrict__ q,
                                 half2 *__restrict__ k, const float *__restrict__ cos_sin_cache,
                                 int heads, int head_size) {
  extern __shared__ float cs[];  // head_size floats: cos[0 .. head_size/2), sin[head_size/2 .. head_size)
  const int token = blockIdx.x;
  const float *row = cos_sin_cache + static_cast<size_t>(positions[token]) * head_size;
  for (int i = threadIdx.x; i < head_size; i += blockDim.x) cs[i] = row[i];

  const int pairs = head_size / 2;
  for (int i = threadIdx.x; i < heads * pairs; i += blockDim.x) {
    const int h = i / pairs, j = i % pairs;
    const float c = cs[j], s = cs[pairs + j];
    const size_t off = (static_cast<size_t>(token) * heads + h) * pairs + j;
    const float2 a = __half22float2(q[off]);
    q[off] = __floats2half2_rn(a.x * c - a.y * s, a.y * c + a.x * s);
    const float2 b = __half22float2(k[off]);
    k[off] = __floats2half2_rn(b.x * c - b.y * s, b.y * c + b.x * s);
  }
}

void rope_gptj(const int *positions, half2 *q, half2 *k, const float *cache, int tokens, int heads,
               int head_size, cudaStream_t stream) {
  const int threads = 128;
  const size_t smem = head_size * sizeof(float);
  rope_gptj_kernel<<<tokens, threads, smem, stream>>>(positions, q, k, cache, heads, head_size);
}
