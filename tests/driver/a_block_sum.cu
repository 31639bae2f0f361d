// Block sums of an array: each block loads its tile into shared memory and thread 0 adds it up.
// The barrier between the loads and the sum is missing, so thread 0 may read a tile element
// before the thread that loads it has written it.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 128

__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float tile[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < TILE; ++k) {
      s += tile[k];
    }
    out[blockIdx.x] = s;
  }
}

int main() {
  const int n = 1 << 16;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (n / TILE) * sizeof(float));
  dim3 block(TILE);
  dim3 grid(n / TILE);
  block_sum<<<grid, block>>>(in, out, n);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
