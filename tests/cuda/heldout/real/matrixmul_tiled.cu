// Tiled matrix multiplication P = M * N (Kirk & Hwu, chapter 5 style).
// MatrixMulKernel: square Width x Width matrices, Width a multiple of TILE_WIDTH.
// MatrixMulKernelGeneral: arbitrary (m x k) * (k x n) with boundary checks.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define TILE_WIDTH 16

#define CHECK(call)                                                          \
  {                                                                          \
    const cudaError_t error = call;                                          \
    if (error != cudaSuccess) {                                              \
      printf("Error: %s:%d, ", __FILE__, __LINE__);                          \
      printf("code:%d, reason: %s\n", error, cudaGetErrorString(error));     \
      exit(1);                                                               \
    }                                                                        \
  }

__global__ void MatrixMulKernel(float *Md, float *Nd, float *Pd, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  // Identify the row and column of the Pd element to work on
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  float Pvalue = 0;
  // Loop over the Md and Nd tiles required to compute the Pd element
  for (int m = 0; m < Width / TILE_WIDTH; ++m) {
    // Collaborative loading of Md and Nd tiles into shared memory
    Mds[ty][tx] = Md[Row * Width + (m * TILE_WIDTH + tx)];
    Nds[ty][tx] = Nd[(m * TILE_WIDTH + ty) * Width + Col];
    __syncthreads();

    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  Pd[Row * Width + Col] = Pvalue;
}

__global__ void MatrixMulKernelGeneral(const float *__restrict__ A,
                                       const float *__restrict__ B, float *C,
                                       int m, int k, int n) {
  __shared__ float As[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];

  int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  float acc = 0.0f;

  int numTiles = (k + TILE_WIDTH - 1) / TILE_WIDTH;
  for (int t = 0; t < numTiles; ++t) {
    int aCol = t * TILE_WIDTH + threadIdx.x;
    int bRow = t * TILE_WIDTH + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < m && aCol < k) ? A[row * k + aCol] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (bRow < k && col < n) ? B[bRow * n + col] : 0.0f;
    __syncthreads();

#pragma unroll
    for (int i = 0; i < TILE_WIDTH; ++i) acc += As[threadIdx.y][i] * Bs[i][threadIdx.x];
    __syncthreads();
  }

  if (row < m && col < n) C[row * n + col] = acc;
}

void MatrixMultiplication(float *M, float *N, float *P, int Width) {
  int size = Width * Width * sizeof(float);
  float *Md, *Nd, *Pd;

  CHECK(cudaMalloc((void **)&Md, size));
  CHECK(cudaMemcpy(Md, M, size, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc((void **)&Nd, size));
  CHECK(cudaMemcpy(Nd, N, size, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc((void **)&Pd, size));

  dim3 dimGrid(Width / TILE_WIDTH, Width / TILE_WIDTH);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(Md, Nd, Pd, Width);
  CHECK(cudaGetLastError());

  CHECK(cudaMemcpy(P, Pd, size, cudaMemcpyDeviceToHost));
  cudaFree(Md);
  cudaFree(Nd);
  cudaFree(Pd);
}

void MatrixMultiplicationGeneral(const float *A, const float *B, float *C, int m,
                                 int k, int n) {
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, m * k * sizeof(float)));
  CHECK(cudaMalloc(&dB, k * n * sizeof(float)));
  CHECK(cudaMalloc(&dC, m * n * sizeof(float)));
  CHECK(cudaMemcpy(dA, A, m * k * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B, k * n * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(TILE_WIDTH, TILE_WIDTH);
  dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  MatrixMulKernelGeneral<<<grid, block>>>(dA, dB, dC, m, k, n);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  printf("general %dx%dx%d: %.3f ms, %.2f GFLOP/s\n", m, k, n, ms,
         2.0 * m * k * n / (ms * 1e6));

  CHECK(cudaMemcpy(C, dC, m * n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
}

static int verify(const float *A, const float *B, const float *C, int m, int k, int n) {
  int errors = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p) s += A[i * k + p] * B[p * n + j];
      if (fabs(s - C[i * n + j]) > 1e-3 * (fabs(s) + 1.0)) ++errors;
    }
  return errors;
}

int main(int argc, char **argv) {
  int Width = 512;
  if (argc > 1) Width = atoi(argv[1]);
  if (Width <= 0 || Width % TILE_WIDTH != 0) {
    fprintf(stderr, "Width must be a positive multiple of %d\n", TILE_WIDTH);
    exit(1);
  }

  float *M = (float *)malloc(Width * Width * sizeof(float));
  float *N = (float *)malloc(Width * Width * sizeof(float));
  float *P = (float *)malloc(Width * Width * sizeof(float));
  for (int i = 0; i < Width * Width; ++i) {
    M[i] = rand() / (float)RAND_MAX;
    N[i] = rand() / (float)RAND_MAX;
  }
  MatrixMultiplication(M, N, P, Width);
  printf("square %d: %d errors\n", Width, verify(M, N, P, Width, Width, Width));

  // a rectangular problem that is not tile aligned
  int m = Width - 3, k = Width / 2 + 5, n = Width + 7;
  float *A = (float *)malloc(m * k * sizeof(float));
  float *B = (float *)malloc(k * n * sizeof(float));
  float *C = (float *)malloc(m * n * sizeof(float));
  for (int i = 0; i < m * k; ++i) A[i] = rand() / (float)RAND_MAX;
  for (int i = 0; i < k * n; ++i) B[i] = rand() / (float)RAND_MAX;
  MatrixMultiplicationGeneral(A, B, C, m, k, n);
  printf("general: %d errors\n", verify(A, B, C, m, k, n));

  free(M); free(N); free(P);
  free(A); free(B); free(C);
  return 0;
}
