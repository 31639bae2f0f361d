// Sparse matrix-vector product with the matrix passed as a struct of device pointers (the way
// graph libraries bundle a CSR view), one warp per row, partial sums reduced in shared memory.
#include <cuda_runtime.h>

struct CsrMatrix {
  const int *row_ptr;
  const int *col_idx;
  const float *vals;
  int rows;
};

#define WARPS 4

__global__ void spmv_warp(CsrMatrix A, const float *x, float *y) {
  __shared__ float partial[WARPS * 32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int row = blockIdx.x * WARPS + warp;
  float sum = 0.f;
  if (row < A.rows) {
    for (int k = A.row_ptr[row] + lane; k < A.row_ptr[row + 1]; k += 32)
      sum += A.vals[k] * x[A.col_idx[k]];
  }
  partial[threadIdx.x] = sum;
  __syncwarp();
  for (int off = 16; off > 0; off /= 2) {
    if (lane < off)
      partial[threadIdx.x] += partial[threadIdx.x + off];
    __syncwarp();
  }
  if (lane == 0 && row < A.rows)
    y[row] = partial[threadIdx.x];
}

void spmv(CsrMatrix A, const float *x, float *y) {
  spmv_warp<<<(A.rows + WARPS - 1) / WARPS, WARPS * 32>>>(A, x, y);
}
