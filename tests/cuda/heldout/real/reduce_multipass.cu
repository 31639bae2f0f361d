// Multi-pass sum reduction ("reduce6"): each block accumulates a grid-stride
// range in registers, reduces it in a statically sized shared array, and
// writes one partial sum. The host repeats the kernel on the partial sums
// until one value is left.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <algorithm>
#include <vector>

#define checkCudaErrors(call)                                               \
  do {                                                                      \
    cudaError_t err_ = (call);                                              \
    if (err_ != cudaSuccess) {                                              \
      fprintf(stderr, "%s(%d): CUDA error %d: %s\n", __FILE__, __LINE__,    \
              (int)err_, cudaGetErrorString(err_));                         \
      exit(EXIT_FAILURE);                                                   \
    }                                                                       \
  } while (0)

#define MAX_THREADS 256
#define MAX_BLOCKS 64
#define MIN_THREADS 64

template <unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(const float *__restrict__ g_idata,
                        float *__restrict__ g_odata, unsigned int n) {
  __shared__ float sdata[blockSize];

  unsigned int tid = threadIdx.x;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  float mySum = 0.0f;

  if (nIsPow2) {
    unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
    while (i < n) {
      mySum += g_idata[i];
      // n is a power of two at least 2*blockSize, so i + blockSize < n
      mySum += g_idata[i + blockSize];
      i += gridSize;
    }
  } else {
    unsigned int i = blockIdx.x * blockSize + threadIdx.x;
    while (i < n) {
      mySum += g_idata[i];
      i += blockSize * gridDim.x;
    }
  }

  sdata[tid] = mySum;
  __syncthreads();

  if ((blockSize >= 512) && (tid < 256)) sdata[tid] = mySum = mySum + sdata[tid + 256];
  __syncthreads();

  if ((blockSize >= 256) && (tid < 128)) sdata[tid] = mySum = mySum + sdata[tid + 128];
  __syncthreads();

  if ((blockSize >= 128) && (tid < 64)) sdata[tid] = mySum = mySum + sdata[tid + 64];
  __syncthreads();

  if (tid < 32) {
    if (blockSize >= 64) mySum += sdata[tid + 32];
#pragma unroll
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
      mySum += __shfl_down_sync(0xffffffff, mySum, offset);
    }
  }

  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

static inline bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }

static unsigned int nextPow2(unsigned int x) {
  --x;
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  return ++x;
}

static void getNumBlocksAndThreads(int n, int &blocks, int &threads) {
  threads = (n < MAX_THREADS * 2) ? nextPow2((n + 1) / 2) : MAX_THREADS;
  threads = std::max(threads, MIN_THREADS);
  blocks = (n + (threads * 2 - 1)) / (threads * 2);
  blocks = std::min(MAX_BLOCKS, blocks);
}

static void reduce(int size, int threads, int blocks, const float *d_idata,
                   float *d_odata) {
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 1, 1);

  if (isPow2(size) && size >= 2 * threads) {
    switch (threads) {
      case 256:
        reduce6<256, true><<<dimGrid, dimBlock>>>(d_idata, d_odata, size);
        break;
      case 128:
        reduce6<128, true><<<dimGrid, dimBlock>>>(d_idata, d_odata, size);
        break;
      case 64:
        reduce6<64, true><<<dimGrid, dimBlock>>>(d_idata, d_odata, size);
        break;
    }
  } else {
    switch (threads) {
      case 256:
        reduce6<256, false><<<dimGrid, dimBlock>>>(d_idata, d_odata, size);
        break;
      case 128:
        reduce6<128, false><<<dimGrid, dimBlock>>>(d_idata, d_odata, size);
        break;
      case 64:
        reduce6<64, false><<<dimGrid, dimBlock>>>(d_idata, d_odata, size);
        break;
    }
  }
}

// Reduces d_in (n elements) on the device; d_a and d_b are scratch buffers of
// MAX_BLOCKS elements used alternately for the partial sums.
static float gpuSum(const float *d_in, int n, float *d_a, float *d_b) {
  int threads = 0, blocks = 0;
  getNumBlocksAndThreads(n, blocks, threads);
  reduce(n, threads, blocks, d_in, d_a);
  checkCudaErrors(cudaGetLastError());

  int s = blocks;
  float *src = d_a, *dst = d_b;
  while (s > 1) {
    getNumBlocksAndThreads(s, blocks, threads);
    reduce(s, threads, blocks, src, dst);
    checkCudaErrors(cudaGetLastError());
    std::swap(src, dst);
    s = blocks;
  }

  float result = 0.0f;
  checkCudaErrors(cudaMemcpy(&result, src, sizeof(float), cudaMemcpyDeviceToHost));
  return result;
}

int main(int argc, char **argv) {
  int n = 1 << 22;
  if (argc > 1) n = atoi(argv[1]);
  if (n < 1) {
    fprintf(stderr, "Usage: %s [n > 0]\n", argv[0]);
    exit(EXIT_FAILURE);
  }

  std::vector<float> h_in(n);
  double ref = 0.0;
  for (int i = 0; i < n; ++i) {
    h_in[i] = (float)(rand() % 100) / 100.0f;
    ref += h_in[i];
  }

  float *d_in, *d_a, *d_b;
  checkCudaErrors(cudaMalloc(&d_in, n * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_a, MAX_BLOCKS * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_b, MAX_BLOCKS * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start, 0));
  float sum = gpuSum(d_in, n, d_a, d_b);
  checkCudaErrors(cudaEventRecord(stop, 0));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));

  printf("n = %d, GPU sum = %f, CPU sum = %f, time = %.3f ms\n", n, sum, ref, ms);

  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_a));
  checkCudaErrors(cudaFree(d_b));
  return (fabs(sum - ref) <= 1e-4 * fabs(ref) + 1e-3) ? EXIT_SUCCESS : EXIT_FAILURE;
}
