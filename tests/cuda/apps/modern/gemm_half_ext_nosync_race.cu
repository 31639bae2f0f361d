// PyTorch extension: a small fp16 GEMM (C = A @ B, fp32 accumulation) for an adapter layer,
// 16 x 16 shared tiles, one output element per thread. Bug: the kernel has no barrier at all —
// it was first written for 32 x 1 tiles processed by one warp and kept its lock-step
// assumption when the tile grew to a 16 x 16 block of eight warps.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_fp16.h>

template <int TILE>
__global__ void hgemm_tiled(const __half *__restrict__ A, const __half *__restrict__ B,
                            __half *__restrict__ C, int M, int N, int K) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int ty = threadIdx.y, tx = threadIdx.x;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int ka = t * TILE + tx, kb = t * TILE + ty;
    As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : __float2half(0.f);
    Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : __float2half(0.f);
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
  }
  if (row < M && col < N) C[row * N + col] = __float2half(acc);
}

// out= style: c is the caller's M x N fp16 output.
void adapter_matmul(torch::Tensor a, torch::Tensor b, torch::Tensor c) {
  TORCH_CHECK(a.scalar_type() == at::ScalarType::Half, "fp16 expected");
  const int M = a.size(0), K = a.size(1), N = b.size(1);
  constexpr int kTile = 16;
  const dim3 block(kTile, kTile);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  hgemm_tiled<kTile><<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
      reinterpret_cast<const __half *>(a.data_ptr<at::Half>()),
      reinterpret_cast<const __half *>(b.data_ptr<at::Half>()),
      reinterpret_cast<__half *>(c.data_ptr<at::Half>()), M, N, K);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("adapter_matmul", &adapter_matmul); }
