// Normalise a vector to unit Euclidean length:
//   sumSquares - per-block partial sums of x[i]^2 (two elements per thread),
//   (host)     - adds the partial sums, norm = sqrt(sum),
//   scale      - x[i] *= 1/norm.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define checkCudaErrors(call)                                                \
  do {                                                                       \
    cudaError_t e = (call);                                                  \
    if (e != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d CUDA error: %s\n", __FILE__, __LINE__,          \
              cudaGetErrorString(e));                                        \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  } while (0)

__global__ void sumSquares(const float *__restrict__ x, float *__restrict__ partial,
                           unsigned int n) {
  extern __shared__ float sdata[];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;

  float v = 0.0f;
  if (i < n) v = x[i] * x[i];
  if (i + blockDim.x < n) v += x[i + blockDim.x] * x[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
      __syncthreads();
    }
  }

  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

__global__ void scale(float *x, float factor, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}

static bool isPowerOfTwo(int v) { return v > 0 && (v & (v - 1)) == 0; }

int main(int argc, char **argv) {
  int n = (argc > 1) ? atoi(argv[1]) : 10000000;
  int threads = (argc > 2) ? atoi(argv[2]) : 512;
  if (n <= 0) {
    fprintf(stderr, "n must be positive\n");
    exit(EXIT_FAILURE);
  }
  if (!isPowerOfTwo(threads) || threads < 64 || threads > 1024) {
    fprintf(stderr, "threads must be a power of two in [64, 1024]\n");
    exit(EXIT_FAILURE);
  }

  const int blocks = (n + threads * 2 - 1) / (threads * 2);
  std::vector<float> h_x(n), h_partial(blocks);
  double ref = 0.0;
  for (int i = 0; i < n; ++i) {
    h_x[i] = (float)((i % 17) - 8) * 0.125f;
    ref += (double)h_x[i] * h_x[i];
  }

  float *d_x, *d_partial;
  checkCudaErrors(cudaMalloc(&d_x, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_partial, blocks * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_x, h_x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));

  sumSquares<<<blocks, threads, threads * sizeof(float)>>>(d_x, d_partial, n);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaMemcpy(h_partial.data(), d_partial, blocks * sizeof(float),
                             cudaMemcpyDeviceToHost));
  double sum = 0.0;
  for (int b = 0; b < blocks; ++b) sum += h_partial[b];
  float norm = (float)sqrt(sum);
  if (norm > 0.0f) {
    scale<<<(n + 255) / 256, 256>>>(d_x, 1.0f / norm, n);
    checkCudaErrors(cudaGetLastError());
  }

  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));

  printf("n=%d threads=%d: norm %.6f (ref %.6f), %.3f ms\n", n, threads, norm, sqrt(ref), ms);

  cudaFree(d_x);
  cudaFree(d_partial);
  return fabs(norm - sqrt(ref)) < 1e-3 * sqrt(ref) ? EXIT_SUCCESS : EXIT_FAILURE;
}
