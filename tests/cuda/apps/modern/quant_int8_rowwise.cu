// Row-wise symmetric int8 quantization of bf16 activations (SmoothQuant-style W8A8 inference):
// one block per row computes the row's absolute maximum with the block reduction helper, then
// every thread quantizes its columns; thread 0 stores the row's scale.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cstdint>
#include "warp_reduce.cuh"

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
quantize_rows_int8(const __nv_bfloat16 *__restrict__ x, int8_t *__restrict__ q, float *__restrict__ scales,
                   int cols) {
  __shared__ float red[BLOCK / kWarpSize];
  const __nv_bfloat16 *xr = x + static_cast<size_t>(blockIdx.x) * cols;
  int8_t *qr = q + static_cast<size_t>(blockIdx.x) * cols;

  float amax = 0.f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) amax = fmaxf(amax, fabsf(__bfloat162float(xr[c])));
  amax = block_reduce_max<BLOCK>(amax, red);

  const float scale = fmaxf(amax, 1e-8f) / 127.f;
  const float inv = 1.f / scale;
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    const int v = __float2int_rn(__bfloat162float(xr[c]) * inv);
    qr[c] = static_cast<int8_t>(max(-127, min(127, v)));
  }
  if (threadIdx.x == 0) scales[blockIdx.x] = scale;
}

void quantize_int8(const __nv_bfloat16 *x, int8_t *q, float *scales, int rows, int cols, cudaStream_t stream) {
  if (cols >= 4096)
    quantize_rows_int8<1024><<<rows, 1024, 0, stream>>>(x, q, scales, cols);
  else
    quantize_rows_int8<256><<<rows, 256, 0, stream>>>(x, q, scales, cols);
}
