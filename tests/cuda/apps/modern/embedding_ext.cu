// PyTorch extension: token embedding lookup (forward, 16-byte vector copies) and its backward
// pass, which scatters the output gradient into the weight gradient with atomics because one
// token id may occur many times in a batch.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include "vec_types.cuh"

template <int VEC>
__global__ void embedding_fwd_kernel(const int64_t *__restrict__ ids, const float *__restrict__ weight,
                                     float *__restrict__ out, int dim) {
  const int64_t token = blockIdx.x;
  const float *src = weight + ids[token] * dim;
  float *dst = out + token * dim;
  for (int d = threadIdx.x * VEC; d < dim; d += blockDim.x * VEC)
    store_packet<float, VEC>(dst + d, load_packet<float, VEC>(src + d));
}

__global__ void embedding_bwd_kernel(const int64_t *__restrict__ ids, const float *__restrict__ grad_out,
                                     float *__restrict__ grad_weight, int dim, int64_t padding_idx) {
  const int64_t token = blockIdx.x;
  const int64_t id = ids[token];
  if (id == padding_idx) return;
  const float *g = grad_out + token * dim;
  float *gw = grad_weight + id * dim;
  for (int d = threadIdx.x; d < dim; d += blockDim.x) atomicAdd(gw + d, g[d]);
}

torch::Tensor embedding_forward(torch::Tensor ids, torch::Tensor weight, torch::Tensor out) {
  const int tokens = ids.numel(), dim = weight.size(1);
  TORCH_CHECK(dim % 4 == 0, "dim must be a multiple of 4");
  embedding_fwd_kernel<4><<<tokens, 128, 0, at::cuda::getCurrentCUDAStream()>>>(
      ids.data_ptr<int64_t>(), weight.data_ptr<float>(), out.data_ptr<float>(), dim);
  return out;
}

void embedding_backward(torch::Tensor ids, torch::Tensor grad_out, torch::Tensor grad_weight,
                        int64_t padding_idx) {
  const int tokens = ids.numel(), dim = grad_weight.size(1);
  embedding_bwd_kernel<<<tokens, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      ids.data_ptr<int64_t>(), grad_out.data_ptr<float>(), grad_weight.data_ptr<float>(), dim, padding_idx);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &embedding_forward);
  m.def("backward", &embedding_backward);
}
