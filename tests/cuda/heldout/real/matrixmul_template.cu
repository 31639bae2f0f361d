/**
 * Matrix multiplication: C = A * B, hA x wA times wA x wB, with the block
 * size chosen at run time among compiled template instances.
 * usage: matrixmul_template [block_size 16|32] [wA] [hA] [wB]
 */
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cassert>
#include <vector>

#define checkCudaErrors(val) check_cuda((val), #val, __FILE__, __LINE__)
static void check_cuda(cudaError_t result, const char *func, const char *file, int line) {
  if (result != cudaSuccess) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line,
            (int)result, cudaGetErrorName(result), func);
    exit(EXIT_FAILURE);
  }
}

template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, float *A, float *B, int wA, int wB) {
  // Block index
  int bx = blockIdx.x;
  int by = blockIdx.y;

  // Thread index
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  // Index of the first sub-matrix of A processed by the block
  int aBegin = wA * BLOCK_SIZE * by;

  // Index of the last sub-matrix of A processed by the block
  int aEnd = aBegin + wA - 1;

  // Step size used to iterate through the sub-matrices of A
  int aStep = BLOCK_SIZE;

  // Index of the first sub-matrix of B processed by the block
  int bBegin = BLOCK_SIZE * bx;

  // Step size used to iterate through the sub-matrices of B
  int bStep = BLOCK_SIZE * wB;

  float Csub = 0;

  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];

    // Load the matrices from device memory to shared memory;
    // each thread loads one element of each matrix
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];

    __syncthreads();

#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) {
      Csub += As[ty][k] * Bs[k][tx];
    }

    // Make sure that the preceding computation is done before loading two
    // new sub-matrices of A and B in the next iteration
    __syncthreads();
  }

  // Write the block sub-matrix to device memory; each thread writes one element
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}

void ConstantInit(float *data, int size, float val) {
  for (int i = 0; i < size; ++i) data[i] = val;
}

template <int BLOCK_SIZE>
float launchMatrixMul(float *d_C, float *d_A, float *d_B, dim3 dimsA, dim3 dimsB,
                      int nIter) {
  dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);

  // warm up
  MatrixMulCUDA<BLOCK_SIZE><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaDeviceSynchronize());

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));
  for (int j = 0; j < nIter; j++) {
    MatrixMulCUDA<BLOCK_SIZE><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
  }
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  float msecTotal = 0.0f;
  checkCudaErrors(cudaEventElapsedTime(&msecTotal, start, stop));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  return msecTotal / nIter;
}

int MatrixMultiply(int block_size, const dim3 &dimsA, const dim3 &dimsB) {
  unsigned int size_A = dimsA.x * dimsA.y;
  unsigned int size_B = dimsB.x * dimsB.y;
  std::vector<float> h_A(size_A), h_B(size_B);
  const float valB = 0.01f;
  ConstantInit(h_A.data(), size_A, 1.0f);
  ConstantInit(h_B.data(), size_B, valB);

  dim3 dimsC(dimsB.x, dimsA.y, 1);
  unsigned int size_C = dimsC.x * dimsC.y;
  std::vector<float> h_C(size_C);

  float *d_A, *d_B, *d_C;
  checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_A), size_A * sizeof(float)));
  checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_B), size_B * sizeof(float)));
  checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(&d_C), size_C * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_A, h_A.data(), size_A * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_B, h_B.data(), size_B * sizeof(float), cudaMemcpyHostToDevice));

  const int nIter = 300;
  float msecPerMatrixMul = 0.0f;
  switch (block_size) {
    case 16:
      msecPerMatrixMul = launchMatrixMul<16>(d_C, d_A, d_B, dimsA, dimsB, nIter);
      break;
    case 32:
      msecPerMatrixMul = launchMatrixMul<32>(d_C, d_A, d_B, dimsA, dimsB, nIter);
      break;
    default:
      fprintf(stderr, "unsupported block size %d\n", block_size);
      exit(EXIT_FAILURE);
  }

  double flopsPerMatrixMul = 2.0 * static_cast<double>(dimsA.x) *
                             static_cast<double>(dimsA.y) * static_cast<double>(dimsB.x);
  double gigaFlops = (flopsPerMatrixMul * 1.0e-9f) / (msecPerMatrixMul / 1000.0f);
  printf("Performance= %.2f GFlop/s, Time= %.3f msec, Size= %.0f Ops, WorkgroupSize= %u threads/block\n",
         gigaFlops, msecPerMatrixMul, flopsPerMatrixMul, block_size * block_size);

  checkCudaErrors(cudaMemcpy(h_C.data(), d_C, size_C * sizeof(float), cudaMemcpyDeviceToHost));

  bool correct = true;
  double eps = 1.e-6;
  for (int i = 0; i < static_cast<int>(size_C); i++) {
    double abs_err = fabs(h_C[i] - (dimsA.x * valB));
    double dot_length = dimsA.x;
    double abs_val = fabs(h_C[i]);
    double rel_err = abs_err / abs_val / dot_length;
    if (rel_err > eps) {
      printf("Error! Matrix[%05d]=%.8f, ref=%.8f error term is > %E\n", i, h_C[i],
             dimsA.x * valB, eps);
      correct = false;
      break;
    }
  }
  printf("%s\n", correct ? "Result = PASS" : "Result = FAIL");

  checkCudaErrors(cudaFree(d_A));
  checkCudaErrors(cudaFree(d_B));
  checkCudaErrors(cudaFree(d_C));
  return correct ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(int argc, char **argv) {
  int block_size = (argc > 1) ? atoi(argv[1]) : 32;
  if (block_size != 16 && block_size != 32) {
    fprintf(stderr, "block_size must be 16 or 32\n");
    exit(EXIT_FAILURE);
  }

  dim3 dimsA(5 * 2 * block_size, 5 * 2 * block_size, 1);
  dim3 dimsB(5 * 4 * block_size, 5 * 2 * block_size, 1);
  if (argc > 2) dimsA.x = atoi(argv[2]);
  if (argc > 3) dimsA.y = atoi(argv[3]);
  if (argc > 4) dimsB.x = atoi(argv[4]);
  dimsB.y = dimsA.x;

  if (dimsA.x == 0 || dimsA.y == 0 || dimsB.x == 0 || dimsA.x % block_size ||
      dimsA.y % block_size || dimsB.x % block_size) {
    fprintf(stderr, "matrix dimensions must be positive multiples of %d\n", block_size);
    exit(EXIT_FAILURE);
  }

  printf("MatrixA(%d,%d), MatrixB(%d,%d)\n", dimsA.x, dimsA.y, dimsB.x, dimsB.y);
  int result = MatrixMultiply(block_size, dimsA, dimsB);
  exit(result);
}
