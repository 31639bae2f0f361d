// Sparse matrix-vector product y += A*x with A in CSR format:
//   spmv_csr_scalar  - one thread per row,
//   spmv_csr_vector  - one warp per row, warp-shuffle reduction,
//   spmv_csr_vector_smem - one warp per row, shared-memory reduction with
//                      cooperative-groups tile synchronisation.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>

namespace cg = cooperative_groups;

#define checkCudaErrors(val)                                                  \
  do {                                                                        \
    cudaError_t e = (val);                                                    \
    if (e != cudaSuccess) {                                                   \
      fprintf(stderr, "CUDA error %s (%s:%d)\n", cudaGetErrorString(e),       \
              __FILE__, __LINE__);                                            \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

const int WARP_SIZE = 32;
const int THREADS_PER_BLOCK = 128;
const int MAX_GRID = 4096;

struct CsrMatrix {
  int num_rows, num_cols, num_nonzeros;
  std::vector<int> row_offsets, column_indices;
  std::vector<float> values;
};

__global__ void spmv_csr_scalar(int num_rows, const int *__restrict__ Ap,
                                const int *__restrict__ Aj, const float *__restrict__ Ax,
                                const float *__restrict__ x, float *__restrict__ y) {
  int row = blockDim.x * blockIdx.x + threadIdx.x;
  if (row < num_rows) {
    float dot = 0.0f;
    int row_start = Ap[row];
    int row_end = Ap[row + 1];
    for (int jj = row_start; jj < row_end; jj++) dot += Ax[jj] * __ldg(&x[Aj[jj]]);
    y[row] += dot;
  }
}

// grid-stride over rows, one warp per row
__global__ void spmv_csr_vector(int num_rows, const int *__restrict__ Ap,
                                const int *__restrict__ Aj, const float *__restrict__ Ax,
                                const float *__restrict__ x, float *__restrict__ y) {
  const int thread_id = blockDim.x * blockIdx.x + threadIdx.x;
  const int lane = thread_id & (WARP_SIZE - 1);
  const int warp_id = thread_id / WARP_SIZE;
  const int num_warps = (blockDim.x * gridDim.x) / WARP_SIZE;

  for (int row = warp_id; row < num_rows; row += num_warps) {
    const int row_start = Ap[row];
    const int row_end = Ap[row + 1];

    float sum = 0.0f;
    for (int jj = row_start + lane; jj < row_end; jj += WARP_SIZE)
      sum += Ax[jj] * __ldg(&x[Aj[jj]]);

#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
      sum += __shfl_down_sync(0xffffffff, sum, offset);

    if (lane == 0) y[row] += sum;
  }
}

__global__ void spmv_csr_vector_smem(int num_rows, const int *__restrict__ Ap,
                                     const int *__restrict__ Aj, const float *__restrict__ Ax,
                                     const float *__restrict__ x, float *__restrict__ y) {
  extern __shared__ float vals[];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

  const int thread_id = blockDim.x * blockIdx.x + threadIdx.x;
  const int lane = thread_id & (WARP_SIZE - 1);
  const int row = thread_id / WARP_SIZE;

  if (row < num_rows) {
    const int row_start = Ap[row];
    const int row_end = Ap[row + 1];

    float sum = 0.0f;
    for (int jj = row_start + lane; jj < row_end; jj += WARP_SIZE) sum += Ax[jj] * x[Aj[jj]];
    vals[threadIdx.x] = sum;
    warp.sync();

    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1) {
      if (lane < offset) vals[threadIdx.x] += vals[threadIdx.x + offset];
      warp.sync();
    }

    if (lane == 0) y[row] += vals[threadIdx.x];
  }
}

static CsrMatrix makeRandomCsr(int rows, int cols, int maxPerRow) {
  CsrMatrix A;
  A.num_rows = rows;
  A.num_cols = cols;
  A.row_offsets.resize(rows + 1);
  A.row_offsets[0] = 0;
  for (int r = 0; r < rows; ++r) {
    int nnz = rand() % (maxPerRow + 1);
    std::vector<int> colsInRow;
    for (int k = 0; k < nnz; ++k) colsInRow.push_back(rand() % cols);
    std::sort(colsInRow.begin(), colsInRow.end());
    colsInRow.erase(std::unique(colsInRow.begin(), colsInRow.end()), colsInRow.end());
    for (int c : colsInRow) {
      A.column_indices.push_back(c);
      A.values.push_back((rand() % 200 - 100) / 100.0f);
    }
    A.row_offsets[r + 1] = (int)A.column_indices.size();
  }
  A.num_nonzeros = (int)A.values.size();
  return A;
}

static inline int divUp(int a, int b) { return (a + b - 1) / b; }

int main(int argc, char **argv) {
  int rows = (argc > 1) ? atoi(argv[1]) : 100000;
  int maxPerRow = (argc > 2) ? atoi(argv[2]) : 64;
  if (rows <= 0 || maxPerRow <= 0) {
    fprintf(stderr, "usage: %s [rows] [max nonzeros per row]\n", argv[0]);
    exit(EXIT_FAILURE);
  }
  const int cols = rows;

  srand(12345);
  CsrMatrix A = makeRandomCsr(rows, cols, maxPerRow);
  std::vector<float> h_x(cols), h_y(rows), h_ref(rows, 0.0f);
  for (int i = 0; i < cols; ++i) h_x[i] = (rand() % 100) / 50.0f;
  for (int r = 0; r < rows; ++r)
    for (int jj = A.row_offsets[r]; jj < A.row_offsets[r + 1]; ++jj)
      h_ref[r] += A.values[jj] * h_x[A.column_indices[jj]];
  printf("matrix %d x %d, %d nonzeros\n", rows, cols, A.num_nonzeros);

  int *d_Ap, *d_Aj;
  float *d_Ax, *d_x, *d_y;
  checkCudaErrors(cudaMalloc(&d_Ap, (rows + 1) * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_Aj, std::max(1, A.num_nonzeros) * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_Ax, std::max(1, A.num_nonzeros) * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_x, cols * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_y, rows * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_Ap, A.row_offsets.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_Aj, A.column_indices.data(), A.num_nonzeros * sizeof(int), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_Ax, A.values.data(), A.num_nonzeros * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_x, h_x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));

  const char *names[3] = {"csr scalar", "csr vector", "csr vector smem"};
  int failures = 0;
  for (int k = 0; k < 3; ++k) {
    checkCudaErrors(cudaMemset(d_y, 0, rows * sizeof(float)));
    checkCudaErrors(cudaEventRecord(start));
    if (k == 0) {
      spmv_csr_scalar<<<divUp(rows, THREADS_PER_BLOCK), THREADS_PER_BLOCK>>>(rows, d_Ap, d_Aj,
                                                                             d_Ax, d_x, d_y);
    } else if (k == 1) {
      int blocks = std::min(MAX_GRID, divUp(rows * WARP_SIZE, THREADS_PER_BLOCK));
      spmv_csr_vector<<<blocks, THREADS_PER_BLOCK>>>(rows, d_Ap, d_Aj, d_Ax, d_x, d_y);
    } else {
      int blocks = divUp(rows * WARP_SIZE, THREADS_PER_BLOCK);
      size_t smem = THREADS_PER_BLOCK * sizeof(float);
      spmv_csr_vector_smem<<<blocks, THREADS_PER_BLOCK, smem>>>(rows, d_Ap, d_Aj, d_Ax, d_x, d_y);
    }
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    float ms;
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    checkCudaErrors(cudaMemcpy(h_y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int r = 0; r < rows; ++r)
      if (fabsf(h_y[r] - h_ref[r]) > 1e-3f * (1.0f + fabsf(h_ref[r]))) ++bad;
    failures += bad != 0;
    printf("%-16s %8.3f ms  %6.2f GFLOP/s  %s\n", names[k], ms,
           2.0 * A.num_nonzeros / (ms * 1e6), bad ? "FAIL" : "ok");
  }

  cudaFree(d_Ap);
  cudaFree(d_Aj);
  cudaFree(d_Ax);
  cudaFree(d_x);
  cudaFree(d_y);
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
