// Embedding backward for a recommendation model (dense gradient): one block per looked-up id,
// adding the output gradient row into the weight gradient. Bug: a plain read-modify-write where
// the ids of a batch repeat (popular items), so two blocks update one row concurrently.
#include <cuda_runtime.h>
#include <cstdint>

constexpr int kThreads = 128;

__global__ void __launch_bounds__(kThreads)
embedding_dense_grad(const int32_t *__restrict__ ids, const float *__restrict__ grad_out,
                     float *__restrict__ grad_weight, int dim) {
  const int32_t id = ids[blockIdx.x];
  const float *g = grad_out + static_cast<size_t>(blockIdx.x) * dim;
  float *gw = grad_weight + static_cast<size_t>(id) * dim;
  for (int d = threadIdx.x; d < dim; d += kThreads) gw[d] += g[d];
}

void embedding_backward(const int32_t *ids, const float *grad_out, float *grad_weight, int lookups,
                        int dim, cudaStream_t stream) {
  // grad_weight was zeroed by the caller (torch.zeros).
  embedding_dense_grad<<<lookups, kThreads, 0, stream>>>(ids, grad_out, grad_weight, dim);
}
