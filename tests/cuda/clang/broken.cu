// One kernel with an error; the other must survive clang's recovery.
#include <cstdio>

__global__ void broken(int *p, int n) {
  int i = threadIdx.x;
  if (i < n) p[i] = undeclared_value + i;
}

__global__ void fine(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  fine<<<1, 64>>>(d, 64);
  cudaDeviceSynchronize();
  return 0;
}
