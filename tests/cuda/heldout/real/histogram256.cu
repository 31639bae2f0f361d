/*
 * 256-bin byte histogram in two stages:
 *   histogram256Kernel: per-warp sub-histograms in shared memory updated with
 *                       shared atomics, merged into one partial histogram per block;
 *   mergeHistogram256Kernel: one block per bin sums the partial histograms.
 */
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cassert>
#include <vector>

#define checkCudaErrors(val) __checkCudaErrors__((val), #val, __FILE__, __LINE__)
inline void __checkCudaErrors__(cudaError_t code, const char *op,
                                const char *file, int line) {
  if (code != cudaSuccess) {
    fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, op,
            cudaGetErrorString(code));
    exit(EXIT_FAILURE);
  }
}

typedef unsigned int uint;
typedef unsigned char uchar;

#define HISTOGRAM256_BIN_COUNT 256
#define LOG2_WARP_SIZE 5U
#define WARP_SIZE (1U << LOG2_WARP_SIZE)
#define WARP_COUNT 6
#define HISTOGRAM256_THREADBLOCK_SIZE (WARP_COUNT * WARP_SIZE)
#define HISTOGRAM256_THREADBLOCK_MEMORY (WARP_COUNT * HISTOGRAM256_BIN_COUNT)
#define PARTIAL_HISTOGRAM256_COUNT 240
#define MERGE_THREADBLOCK_SIZE 256

inline __device__ void addByte(uint *s_WarpHist, uint data) {
  atomicAdd(s_WarpHist + data, 1);
}

inline __device__ void addWord(uint *s_WarpHist, uint data) {
  addByte(s_WarpHist, (data >> 0) & 0xFFU);
  addByte(s_WarpHist, (data >> 8) & 0xFFU);
  addByte(s_WarpHist, (data >> 16) & 0xFFU);
  addByte(s_WarpHist, (data >> 24) & 0xFFU);
}

__global__ void histogram256Kernel(uint *d_PartialHistograms, const uint *d_Data,
                                   uint dataCount) {
  // Per-warp subhistogram storage
  __shared__ uint s_Hist[HISTOGRAM256_THREADBLOCK_MEMORY];
  uint *s_WarpHist =
      s_Hist + (threadIdx.x >> LOG2_WARP_SIZE) * HISTOGRAM256_BIN_COUNT;

  // Clear shared memory storage for current threadblock before processing
#pragma unroll
  for (uint i = 0;
       i < (HISTOGRAM256_THREADBLOCK_MEMORY / HISTOGRAM256_THREADBLOCK_SIZE);
       i++) {
    s_Hist[threadIdx.x + i * HISTOGRAM256_THREADBLOCK_SIZE] = 0;
  }

  __syncthreads();

  for (uint pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount;
       pos += blockDim.x * gridDim.x) {
    uint data = d_Data[pos];
    addWord(s_WarpHist, data);
  }

  // Merge per-warp histograms into per-block and write to global memory
  __syncthreads();

  for (uint bin = threadIdx.x; bin < HISTOGRAM256_BIN_COUNT;
       bin += HISTOGRAM256_THREADBLOCK_SIZE) {
    uint sum = 0;

    for (uint i = 0; i < WARP_COUNT; i++) {
      sum += s_Hist[bin + i * HISTOGRAM256_BIN_COUNT];
    }

    d_PartialHistograms[blockIdx.x * HISTOGRAM256_BIN_COUNT + bin] = sum;
  }
}

// One thread block per bin: sum the partial histograms of all blocks
__global__ void mergeHistogram256Kernel(uint *d_Histogram,
                                        const uint *d_PartialHistograms,
                                        uint histogramCount) {
  uint sum = 0;

  for (uint i = threadIdx.x; i < histogramCount; i += MERGE_THREADBLOCK_SIZE) {
    sum += d_PartialHistograms[blockIdx.x + i * HISTOGRAM256_BIN_COUNT];
  }

  __shared__ uint data[MERGE_THREADBLOCK_SIZE];
  data[threadIdx.x] = sum;

  for (uint stride = MERGE_THREADBLOCK_SIZE / 2; stride > 0; stride >>= 1) {
    __syncthreads();

    if (threadIdx.x < stride) {
      data[threadIdx.x] += data[threadIdx.x + stride];
    }
  }

  if (threadIdx.x == 0) {
    d_Histogram[blockIdx.x] = data[0];
  }
}

static uint *d_PartialHistograms;

void initHistogram256(void) {
  checkCudaErrors(cudaMalloc((void **)&d_PartialHistograms,
                             PARTIAL_HISTOGRAM256_COUNT *
                                 HISTOGRAM256_BIN_COUNT * sizeof(uint)));
}

void closeHistogram256(void) { checkCudaErrors(cudaFree(d_PartialHistograms)); }

void histogram256(uint *d_Histogram, void *d_Data, uint byteCount) {
  assert(byteCount % sizeof(uint) == 0);
  histogram256Kernel<<<PARTIAL_HISTOGRAM256_COUNT,
                       HISTOGRAM256_THREADBLOCK_SIZE>>>(
      d_PartialHistograms, (uint *)d_Data, byteCount / sizeof(uint));
  checkCudaErrors(cudaGetLastError());

  mergeHistogram256Kernel<<<HISTOGRAM256_BIN_COUNT, MERGE_THREADBLOCK_SIZE>>>(
      d_Histogram, d_PartialHistograms, PARTIAL_HISTOGRAM256_COUNT);
  checkCudaErrors(cudaGetLastError());
}

int main(int argc, char **argv) {
  uint byteCount = 64 * 1048576;
  if (argc > 1) byteCount = (uint)atoi(argv[1]);
  if (byteCount == 0 || byteCount % sizeof(uint) != 0) {
    fprintf(stderr, "byte count must be a positive multiple of %d\n", (int)sizeof(uint));
    exit(EXIT_FAILURE);
  }

  std::vector<uchar> h_Data(byteCount);
  uint h_Histogram[HISTOGRAM256_BIN_COUNT], h_HistogramCPU[HISTOGRAM256_BIN_COUNT];
  srand(2009);
  for (uint i = 0; i < byteCount; i++) h_Data[i] = rand() % 256;

  uchar *d_Data;
  uint *d_Histogram;
  checkCudaErrors(cudaMalloc((void **)&d_Data, byteCount));
  checkCudaErrors(cudaMalloc((void **)&d_Histogram, HISTOGRAM256_BIN_COUNT * sizeof(uint)));
  checkCudaErrors(cudaMemcpy(d_Data, h_Data.data(), byteCount, cudaMemcpyHostToDevice));

  initHistogram256();

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  const int numRuns = 16;
  checkCudaErrors(cudaEventRecord(start));
  for (int iter = 0; iter < numRuns; iter++) {
    histogram256(d_Histogram, d_Data, byteCount);
  }
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
  double dAvgSecs = 1.0e-3 * (double)ms / (double)numRuns;
  printf("histogram256() time (average) : %.5f sec, %.4f MB/sec\n", dAvgSecs,
         ((double)byteCount * 1.0e-6) / dAvgSecs);

  checkCudaErrors(cudaMemcpy(h_Histogram, d_Histogram,
                             HISTOGRAM256_BIN_COUNT * sizeof(uint),
                             cudaMemcpyDeviceToHost));

  memset(h_HistogramCPU, 0, sizeof(h_HistogramCPU));
  for (uint i = 0; i < byteCount; i++) h_HistogramCPU[h_Data[i]]++;

  int PassFailFlag = 1;
  for (uint i = 0; i < HISTOGRAM256_BIN_COUNT; i++)
    if (h_Histogram[i] != h_HistogramCPU[i]) PassFailFlag = 0;
  printf(PassFailFlag ? " ...256-bin histograms match\n\n"
                      : " ***256-bin histograms do not match!!!***\n\n");

  closeHistogram256();
  checkCudaErrors(cudaFree(d_Histogram));
  checkCudaErrors(cudaFree(d_Data));
  exit(PassFailFlag ? EXIT_SUCCESS : EXIT_FAILURE);
}
