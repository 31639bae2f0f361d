// Work-efficient exclusive prefix sum (Blelloch up-sweep / down-sweep) with
// padding to avoid shared-memory bank conflicts, for large arrays:
//   1. every block scans ELEMENTS_PER_BLOCK elements and stores its total,
//   2. one block scans the block totals,
//   3. the scanned totals are added back to each block's elements.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cassert>
#include <vector>

#define CUDA_CHECK(x)                                                        \
  do {                                                                       \
    cudaError_t e = (x);                                                     \
    if (e != cudaSuccess) {                                                  \
      fprintf(stderr, "CUDA failure %s:%d: '%s'\n", __FILE__, __LINE__,      \
              cudaGetErrorString(e));                                        \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  } while (0)

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

#define ELEMENTS_PER_BLOCK 1024
#define THREADS_PER_BLOCK (ELEMENTS_PER_BLOCK / 2)

// Scans n = 2 * blockDim.x elements per block. Dynamic shared memory must hold
// n + CONFLICT_FREE_OFFSET(n) floats.
__global__ void prescan(float *g_odata, const float *g_idata, float *g_sums,
                        int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  int blockOffset = blockIdx.x * n;

  int ai = thid;
  int bi = thid + (n / 2);
  int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
  int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
  temp[ai + bankOffsetA] = g_idata[blockOffset + ai];
  temp[bi + bankOffsetB] = g_idata[blockOffset + bi];

  int offset = 1;
  // build sum in place up the tree
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1;
      int b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      temp[b] += temp[a];
    }
    offset *= 2;
  }

  // clear the last element
  if (thid == 0) {
    int last = n - 1 + CONFLICT_FREE_OFFSET(n - 1);
    if (g_sums != NULL) g_sums[blockIdx.x] = temp[last];
    temp[last] = 0.0f;
  }

  // traverse down the tree and build the scan
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1;
      int b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      float t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();

  g_odata[blockOffset + ai] = temp[ai + bankOffsetA];
  g_odata[blockOffset + bi] = temp[bi + bankOffsetB];
}

// Adds uniforms[blockIdx.x] to the n elements of block blockIdx.x (two per thread).
__global__ void uniformAdd(float *g_data, const float *uniforms, int n) {
  __shared__ float uni;
  if (threadIdx.x == 0) uni = uniforms[blockIdx.x];
  __syncthreads();

  unsigned int address = blockIdx.x * n + threadIdx.x;
  g_data[address] += uni;
  g_data[address + blockDim.x] += uni;
}

static size_t sharedBytes(int n) {
  return (n + CONFLICT_FREE_OFFSET(n)) * sizeof(float);
}

static void scanLargeArray(float *d_out, const float *d_in, int numElements,
                           float *d_sums, float *d_sumsScanned) {
  int numBlocks = numElements / ELEMENTS_PER_BLOCK;
  size_t smem = sharedBytes(ELEMENTS_PER_BLOCK);

  dim3 grid(numBlocks);
  dim3 threads(THREADS_PER_BLOCK);
  prescan<<<grid, threads, smem>>>(d_out, d_in, d_sums, ELEMENTS_PER_BLOCK);
  CUDA_CHECK(cudaGetLastError());

  if (numBlocks > 1) {
    // d_sums holds ELEMENTS_PER_BLOCK entries, zero beyond numBlocks
    prescan<<<1, threads, smem>>>(d_sumsScanned, d_sums, NULL, ELEMENTS_PER_BLOCK);
    CUDA_CHECK(cudaGetLastError());
    uniformAdd<<<grid, threads>>>(d_out, d_sumsScanned, ELEMENTS_PER_BLOCK);
    CUDA_CHECK(cudaGetLastError());
  }
}

int main(int argc, char *argv[]) {
  int numElements = (argc > 1) ? atoi(argv[1]) : (1 << 20);

  if (numElements <= 0 || numElements % ELEMENTS_PER_BLOCK) {
    fprintf(stderr, "numElements (%d) must be a positive multiple of %d\n",
            numElements, ELEMENTS_PER_BLOCK);
    exit(EXIT_FAILURE);
  }
  if (numElements / ELEMENTS_PER_BLOCK > ELEMENTS_PER_BLOCK) {
    fprintf(stderr, "at most %d elements supported\n",
            ELEMENTS_PER_BLOCK * ELEMENTS_PER_BLOCK);
    exit(EXIT_FAILURE);
  }

  std::vector<float> h_in(numElements), h_out(numElements);
  for (int i = 0; i < numElements; ++i) h_in[i] = (float)(rand() & 0xf);

  float *d_in, *d_out, *d_sums, *d_sumsScanned;
  size_t bytes = numElements * sizeof(float);
  CUDA_CHECK(cudaMalloc(&d_in, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));
  CUDA_CHECK(cudaMalloc(&d_sums, ELEMENTS_PER_BLOCK * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_sumsScanned, ELEMENTS_PER_BLOCK * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_sums, 0, ELEMENTS_PER_BLOCK * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  scanLargeArray(d_out, d_in, numElements, d_sums, d_sumsScanned);
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));

  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));

  float acc = 0.f;
  int errors = 0;
  for (int i = 0; i < numElements; ++i) {
    if (h_out[i] != acc) ++errors;
    acc += h_in[i];
  }
  printf("scan of %d elements: %.3f ms, %d mismatches\n", numElements, ms, errors);

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_sums));
  CUDA_CHECK(cudaFree(d_sumsScanned));
  return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
