// Greedy decoding: the arg-max token of every row of logits, one block per row, a shared-memory
// tree over (value, index) pairs that breaks ties toward the smaller index. Bug: the barrier of
// the tree step was put inside the `if (tid < stride)` that selects the active threads.
#include <cuda_runtime.h>
#include <cfloat>

template <int BLOCK>
__global__ void argmax_rows(const float *__restrict__ logits, int *__restrict__ out_ids, int vocab) {
  __shared__ float s_val[BLOCK];
  __shared__ int s_idx[BLOCK];
  const int tid = threadIdx.x;
  const float *row = logits + static_cast<size_t>(blockIdx.x) * vocab;

  float best = -FLT_MAX;
  int best_i = 0;
  for (int i = tid; i < vocab; i += BLOCK) {
    const float v = row[i];
    if (v > best) { best = v; best_i = i; }
  }
  s_val[tid] = best;
  s_idx[tid] = best_i;
  __syncthreads();

  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      const float ov = s_val[tid + stride];
      const int oi = s_idx[tid + stride];
      if (ov > s_val[tid] || (ov == s_val[tid] && oi < s_idx[tid])) {
        s_val[tid] = ov;
        s_idx[tid] = oi;
      }
      __syncthreads();
    }
  }
  if (tid == 0) out_ids[blockIdx.x] = s_idx[0];
}

void greedy_sample(const float *logits, int *ids, int batch, int vocab, cudaStream_t stream) {
  argmax_rows<512><<<batch, 512, 0, stream>>>(logits, ids, vocab);
}
