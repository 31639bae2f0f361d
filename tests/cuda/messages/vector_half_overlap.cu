// 128-bit copies of half tiles (8 halves per float4, each word two halves). The racy kernel
// strides its tile by 4 halves instead of 8, so neighbours' 16-byte stores overlap: the report
// names an element both touch and the elements each thread's word covers.
#include <cuda_fp16.h>
#define FLOAT4(p) (reinterpret_cast<float4 *>(&(p))[0])
#define CFLOAT4(p) (reinterpret_cast<const float4 *>(&(p))[0])

// Copies a half tile through shared memory, 8 halves (16 bytes) per thread per load.
__global__ void tile_copy(const half *x, half *y, int n) {
  __shared__ half tile[1024];
  int t = threadIdx.x;
  int idx = (blockIdx.x * blockDim.x + t) * 8;
  FLOAT4(tile[t * 8]) = CFLOAT4(x[idx]);
  __syncthreads();
  // each thread reads its neighbour's 8 halves
  int j = (t + 1) % blockDim.x;
  FLOAT4(y[idx]) = FLOAT4(tile[j * 8]);
}

__global__ void tile_copy_racy(const half *x, half *y, int n) {
  __shared__ half tile[1024];
  int t = threadIdx.x;
  int idx = (blockIdx.x * blockDim.x + t) * 8;
  // off by one: thread t's 16 bytes overlap thread t+1's (stride 4 halves, not 8)
  FLOAT4(tile[t * 4]) = CFLOAT4(x[idx]);
  __syncthreads();
  FLOAT4(y[idx]) = FLOAT4(tile[t * 8]);
}

int main() {
  half *x, *y;
  cudaMalloc(&x, 128 * 128 * 8 * sizeof(half));
  cudaMalloc(&y, 128 * 128 * 8 * sizeof(half));
  tile_copy<<<128, 128>>>(x, y, 128 * 128 * 8);
  tile_copy_racy<<<128, 128>>>(x, y, 128 * 128 * 8);
  cudaDeviceSynchronize();
  return 0;
}
