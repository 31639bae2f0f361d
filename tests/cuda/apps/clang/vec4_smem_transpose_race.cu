// Vectorized tile staging in the style of current ML kernels (the barrier between the float4
// stores and the scalar reads is missing): each thread loads four floats at
// once through a float4 view of the row, stores them into a shared tile, and after the barrier
// reads a column back as scalars.
#include <cuda_runtime.h>

#define FLOAT4(p) (reinterpret_cast<float4 *>(&(p))[0])
#define CONST_FLOAT4(p) (reinterpret_cast<const float4 *>(&(p))[0])

constexpr int kCols = 64;

__global__ void stage_rows(const float *__restrict__ in, float *__restrict__ out, int rows) {
  __shared__ float tile[kCols * 4];
  int t = threadIdx.x;          // 16 threads per row, 4 rows per block
  int row = blockIdx.x * 4 + t / 16;
  int col = (t % 16) * 4;
  float4 v = CONST_FLOAT4(in[row * kCols + col]);
  FLOAT4(tile[(t / 16) * kCols + col]) = v;
  float acc = 0.f;
  for (int r = 0; r < 4; ++r)
    acc += tile[r * kCols + t % kCols];
  out[blockIdx.x * 64 + t] = acc;
}

int main() {
  float *in, *out;
  int rows = 1024;
  cudaMalloc(&in, rows * kCols * sizeof(float));
  cudaMalloc(&out, rows / 4 * 64 * sizeof(float));
  stage_rows<<<rows / 4, 64>>>(in, out, rows);
  cudaDeviceSynchronize();
  return 0;
}
