// SAXPY with a grid-stride loop: every thread owns the elements i, i + stride, ...; no two
// threads touch one element, so there is nothing to synchronize.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

int main() {
  const int n = 1 << 20;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  saxpy<<<256, 256>>>(n, 2.0f, x, y);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
  return 0;
}
