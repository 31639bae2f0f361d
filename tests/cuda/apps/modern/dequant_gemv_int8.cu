// Weight-only int8 GEMV for batch-1 decoding: y = (W * scale) x with W int8 [N, K] and a float
// scale per output row, x and y fp16. One warp per output row; each lane walks the row in
// 4-byte packets (char4) and the lanes are combined with shuffles.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include "warp_reduce.cuh"

constexpr int kRowsPerBlock = 8;

__global__ void __launch_bounds__(kRowsPerBlock * 32)
w8_gemv(const int8_t *__restrict__ W, const float *__restrict__ row_scale, const half *__restrict__ x,
        half *__restrict__ y, int N, int K) {
  const int lane = threadIdx.x & 31;
  const int row = blockIdx.x * kRowsPerBlock + (threadIdx.x >> 5);
  if (row >= N) return;
  const char4 *w4 = reinterpret_cast<const char4 *>(W + static_cast<size_t>(row) * K);
  float acc = 0.f;
  for (int k4 = lane; k4 < K / 4; k4 += 32) {
    const char4 w = w4[k4];
    const int k = k4 * 4;
    acc += w.x * __half2float(x[k]) + w.y * __half2float(x[k + 1]) + w.z * __half2float(x[k + 2]) +
           w.w * __half2float(x[k + 3]);
  }
  acc = warp_reduce_sum(acc);
  if (lane == 0) y[row] = __float2half(acc * row_scale[row]);
}

// K % 4 == 0 (checked by the caller's weight packer).
void gemv_w8(const int8_t *W, const float *scale, const half *x, half *y, int N, int K, cudaStream_t stream) {
  w8_gemv<<<(N + kRowsPerBlock - 1) / kRowsPerBlock, kRowsPerBlock * 32, 0, stream>>>(W, scale, x, y, N, K);
}
