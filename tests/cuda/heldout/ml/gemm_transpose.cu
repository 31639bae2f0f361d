// Register-tiled SGEMM (C = alpha * A B + beta * C, row-major) and a batched
// tiled transpose, with a small driver.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                          \
  do {                                                                            \
    cudaError_t err_ = (call);                                                    \
    if (err_ != cudaSuccess) {                                                    \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_),       \
              __FILE__, __LINE__);                                                \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Block tile BM x BN, K-slab BK, each thread a TM x TN register tile.
// A slab is stored transposed (As[k][m]) so both operands are read as float4.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_regtile_kernel(int M, int N, int K, float alpha, const float* __restrict__ A,
                     const float* __restrict__ B, float beta, float* __restrict__ C) {
  constexpr int THREADS = (BM / TM) * (BN / TN);
  constexpr int A_LOADS = BM * BK / 4;  // float4 loads for the A slab
  constexpr int B_LOADS = BK * BN / 4;  // float4 loads for the B slab
  static_assert(TM == 4 && TN == 4, "register tile is read as float4");
  static_assert(A_LOADS + B_LOADS == THREADS, "one float4 per thread per slab");

  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];

  const int tid = threadIdx.x;
  const int ty = tid / (BN / TN);
  const int tx = tid % (BN / TN);
  const int bm = blockIdx.y * BM;
  const int bn = blockIdx.x * BN;

  const int a_row = tid / (BK / 4);
  const int a_col = (tid % (BK / 4)) * 4;
  const int b_tid = tid - A_LOADS;
  const int b_row = b_tid / (BN / 4);
  const int b_col = (b_tid % (BN / 4)) * 4;

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

  for (int k0 = 0; k0 < K; k0 += BK) {
    if (tid < A_LOADS) {
      const float4 a = *reinterpret_cast<const float4*>(&A[(size_t)(bm + a_row) * K + k0 + a_col]);
      As[a_col + 0][a_row] = a.x;
      As[a_col + 1][a_row] = a.y;
      As[a_col + 2][a_row] = a.z;
      As[a_col + 3][a_row] = a.w;
    } else {
      *reinterpret_cast<float4*>(&Bs[b_row][b_col]) =
          *reinterpret_cast<const float4*>(&B[(size_t)(k0 + b_row) * N + bn + b_col]);
    }
    __syncthreads();

#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float4 a4 = *reinterpret_cast<const float4*>(&As[k][ty * TM]);
      const float4 b4 = *reinterpret_cast<const float4*>(&Bs[k][tx * TN]);
      const float a[TM] = {a4.x, a4.y, a4.z, a4.w};
      const float b[TN] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    float4* c4 = reinterpret_cast<float4*>(&C[(size_t)(bm + ty * TM + i) * N + bn + tx * TN]);
    float4 c = *c4;
    c.x = alpha * acc[i][0] + beta * c.x;
    c.y = alpha * acc[i][1] + beta * c.y;
    c.z = alpha * acc[i][2] + beta * c.z;
    c.w = alpha * acc[i][3] + beta * c.w;
    *c4 = c;
  }
}

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;

// out[b] = in[b]^T for a batch of rows x cols matrices. block = (32, 8).
__global__ void transpose_kernel(float* __restrict__ out, const float* __restrict__ in, int rows,
                                 int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  const float* src = in + (size_t)blockIdx.z * rows * cols;
  float* dst = out + (size_t)blockIdx.z * rows * cols;

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = src[(size_t)(y + j) * cols + x];
  __syncthreads();

  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) dst[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ----------------------------------------------------------------------------

void sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 4, TN = 4;
  assert(M % BM == 0 && N % BN == 0 && K % BK == 0);
  dim3 block((BM / TM) * (BN / TN));
  dim3 grid(N / BN, M / BM);
  sgemm_regtile_kernel<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
  CUDA_CHECK(cudaGetLastError());
}

void transpose(float* out, const float* in, int batch, int rows, int cols) {
  dim3 block(TILE_DIM, BLOCK_ROWS);
  dim3 grid(ceil_div(cols, TILE_DIM), ceil_div(rows, TILE_DIM), batch);
  transpose_kernel<<<grid, block>>>(out, in, rows, cols);
  CUDA_CHECK(cudaGetLastError());
}

int main() {
  const int M = 1024, N = 768, K = 512;
  std::vector<float> hA((size_t)M * K), hB((size_t)K * N);
  for (auto& v : hA) v = (float)rand() / RAND_MAX - 0.5f;
  for (auto& v : hB) v = (float)rand() / RAND_MAX - 0.5f;

  float *dA, *dB, *dC, *dT;
  CUDA_CHECK(cudaMalloc(&dA, hA.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dB, hB.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dC, (size_t)M * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dT, (size_t)M * N * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dC, 0, (size_t)M * N * sizeof(float)));

  sgemm(M, N, K, 1.0f, dA, dB, 0.0f, dC);
  transpose(dT, dC, 1, M, N);
  CUDA_CHECK(cudaDeviceSynchronize());
  printf("done\n");

  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
  CUDA_CHECK(cudaFree(dT));
  return 0;
}
