// A gather over a 3-D tensor laid out as [n][m][p], with grid-stride loops in x and
// block-stride loops in y, launched from a library entry point whose launch shape the
// analysis cannot see (the sizes come from the caller). Every index is a product of unknowns
// (n, m, p and the block size), which makes the verifier's queries nonlinear: deciding them
// takes minutes, far more than a small per-kernel budget.
#include <cuda_runtime.h>

__global__ void tensor_gather(float *a, float *b, int n, int m, int p) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    for (int j = threadIdx.y; j < m; j += blockDim.y) {
      a[i * m * p + j * p + (i % p)] = b[(i * m + j) * p] * a[(i + 1) * m * p + j];
      b[(j * n + i) * p + m] = a[i * p * m + j * blockDim.x];
    }
  }
}

void gather(float *a, float *b, int n, int m, int p, dim3 grid, dim3 block) {
  tensor_gather<<<grid, block>>>(a, b, n, m, p);
}
