// SGEMM with shared-memory tiles and register blocking (each thread accumulates a TM x TN tile of
// C in registers), the structure of the well-known step-by-step CUDA GEMM tutorials. A is staged
// transposed so the inner loop reads both tiles along rows. Bug: the barrier at the end of the
// k-loop was dropped as "redundant" — the next step then overwrites As/Bs while slower threads
// are still reading the current tiles.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_reg_tiles(int M, int N, int K, float alpha, const float *__restrict__ A,
                const float *__restrict__ B, float beta, float *__restrict__ C) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  __shared__ float As[BK][BM];
  __shared__ float Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tr = tid / (BN / TN);
  const int tc = tid % (BN / TN);
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;

  float acc[TM][TN] = {0.f};
  float a_frag[TM];
  float b_frag[TN];

  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += kThreads) {
      const int r = i / BK, c = i % BK;
      As[c][r] = (row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : 0.f;
    }
    for (int i = tid; i < BK * BN; i += kThreads) {
      const int r = i / BN, c = i % BN;
      Bs[r][c] = (k0 + r < K && col0 + c < N) ? B[(k0 + r) * N + col0 + c] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int i = 0; i < TM; ++i) a_frag[i] = As[kk][tr * TM + i];
#pragma unroll
      for (int j = 0; j < TN; ++j) b_frag[j] = Bs[kk][tc * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
    }
  }

#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int r = row0 + tr * TM + i, c = col0 + tc * TN + j;
      if (r < M && c < N) C[r * N + c] = alpha * acc[i][j] + beta * C[r * N + c];
    }
}

template <int BM, int BN, int BK, int TM, int TN>
void launch_sgemm(int M, int N, int K, const float *A, const float *B, float *C) {
  const dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  sgemm_reg_tiles<BM, BN, BK, TM, TN><<<grid, (BM / TM) * (BN / TN)>>>(M, N, K, 1.f, A, B, 0.f, C);
}

int main() {
  const int M = 2048, N = 2048, K = 1024;
  float *A, *B, *C;
  cudaMalloc(&A, sizeof(float) * M * K);
  cudaMalloc(&B, sizeof(float) * K * N);
  cudaMalloc(&C, sizeof(float) * M * N);
  launch_sgemm<128, 128, 8, 8, 8>(M, N, K, A, B, C);
  launch_sgemm<64, 64, 8, 4, 4>(M, N, K, A, B, C);
  cudaDeviceSynchronize();
  std::vector<float> h(16);
  cudaMemcpy(h.data(), C, sizeof(float) * 16, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  return 0;
}
