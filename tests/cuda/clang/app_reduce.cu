// Block reduction with a template block size, dispatched from host code.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "reduce_helpers.cuh"

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); exit(1); } } while (0)

template <int BLOCK>
__global__ void block_reduce(const float *__restrict__ in, float *out, int n) {
  __shared__ float partial[BLOCK / 32];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < BLOCK / 32 ? partial[threadIdx.x] : 0.0f;
    v = warp_sum(v);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

__global__ void tile_gemm(const float *A, const float *B, float *C, int n) {
  namespace cg = cooperative_groups;
  cg::thread_block blk = cg::this_thread_block();
  float r[4][4] = {0};
  for (int k = 0; k < n; ++k)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) r[a][b] += A[a * n + k] * B[k * n + b];
  blk.sync();
  C[threadIdx.x] = r[threadIdx.x % 4][threadIdx.y % 4];
}

__global__ void scale_half(half *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = __float2half(__half2float(x[i]) * s);
}

void run_reduce(const float *d_in, float *d_out, int n, int K, cudaStream_t stream) {
  switch (K) {
  case 128: block_reduce<128><<<(n + 127) / 128, 128, 0, stream>>>(d_in, d_out, n); break;
  case 256: block_reduce<256><<<(n + 255) / 256, 256>>>(d_in, d_out, n); break;
  default: block_reduce<512><<<dim3((n + 511) / 512), dim3(512)>>>(d_in, d_out, n); break;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  std::vector<float> h(n, 1.0f);
  float *d_in, *d_out, *d_c;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, sizeof(float)));
  CHECK(cudaMalloc(&d_c, 64 * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  run_reduce(d_in, d_out, n, std::min(n, 256), 0);
  dim3 grid(1), block(16, 4);
  void *args[] = {&d_in, &d_in, &d_c, &n};
  CHECK(cudaLaunchCooperativeKernel((void *)tile_gemm, grid, block, args, 0, 0));
  scale_half<<<(n + 255) / 256, 256>>>((half *)d_c, 0.5f, 64);
  CHECK(cudaDeviceSynchronize());
  float result = 0;
  CHECK(cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost));
  printf("sum = %f\n", result);
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
