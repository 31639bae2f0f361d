// Per-token dynamic FP8 (e4m3) quantization of fp16 activations before an FP8 GEMM: a shared
// max-tree over |x| (dynamic shared memory sized by the launch), thread 0 turns the maximum into
// the token's scale, everyone converts. Bug: the scale is read from shared memory without a
// barrier after thread 0 stored it.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

constexpr float kFp8E4M3Max = 448.f;

__global__ void per_token_quant_fp8(const half *__restrict__ x, __nv_fp8_e4m3 *__restrict__ q,
                                    float *__restrict__ scales, int hidden) {
  extern __shared__ float red[];  // blockDim.x floats
  __shared__ float s_scale;
  const int tid = threadIdx.x;
  const half *xr = x + static_cast<size_t>(blockIdx.x) * hidden;

  float amax = 0.f;
  for (int c = tid; c < hidden; c += blockDim.x) amax = fmaxf(amax, fabsf(__half2float(xr[c])));
  red[tid] = amax;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  if (tid == 0) {
    s_scale = fmaxf(red[0], 1e-12f) / kFp8E4M3Max;
    scales[blockIdx.x] = s_scale;
  }
  const float inv = 1.f / s_scale;
  __nv_fp8_e4m3 *qr = q + static_cast<size_t>(blockIdx.x) * hidden;
  for (int c = tid; c < hidden; c += blockDim.x) qr[c] = __nv_fp8_e4m3(__half2float(xr[c]) * inv);
}

void quant_fp8(const half *x, __nv_fp8_e4m3 *q, float *scales, int tokens, int hidden, cudaStream_t stream) {
  const int threads = 256;
  per_token_quant_fp8<<<tokens, threads, threads * sizeof(float), stream>>>(x, q, scales, hidden);
}
