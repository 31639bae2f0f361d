// LSD radix sort of 32-bit keys, 4 bits per pass:
//   radixSortBlocks  - each block sorts its BLOCK keys by the current digit with
//                      four 1-bit split passes (shared-memory Hillis-Steele scan),
//   findRadixOffsets - per block: count and first position of each digit,
//   (host)           - exclusive scan of the digit counts, digit-major,
//   reorderData      - scatter every key to its global position.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t status = (call);                                               \
    if (status != cudaSuccess) {                                               \
      fprintf(stderr, "CUDA error: %s at %s:%d\n", cudaGetErrorString(status), \
              __FILE__, __LINE__);                                             \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

#define RADIX_BITS 4
#define RADIX (1 << RADIX_BITS)
#define BLOCK 256

template <int BLOCK_THREADS>
__global__ void radixSortBlocks(unsigned int *keys, unsigned int startbit) {
  __shared__ unsigned int s_keys[BLOCK_THREADS];
  __shared__ unsigned int s_scan[2][BLOCK_THREADS];
  __shared__ unsigned int s_totalZeros;

  const unsigned int tid = threadIdx.x;
  const unsigned int gid = blockIdx.x * BLOCK_THREADS + tid;

  unsigned int key = keys[gid];

  for (unsigned int bit = startbit; bit < startbit + RADIX_BITS; ++bit) {
    unsigned int b = (key >> bit) & 1u;

    // inclusive scan of the "bit is zero" flags, double buffered
    int pout = 0, pin = 1;
    s_scan[pout][tid] = 1u - b;
    __syncthreads();
    for (int offset = 1; offset < BLOCK_THREADS; offset <<= 1) {
      pout = 1 - pout;
      pin = 1 - pout;
      if (tid >= offset)
        s_scan[pout][tid] = s_scan[pin][tid] + s_scan[pin][tid - offset];
      else
        s_scan[pout][tid] = s_scan[pin][tid];
      __syncthreads();
    }
    unsigned int inclusive = s_scan[pout][tid];
    unsigned int zerosBefore = inclusive - (1u - b);
    if (tid == BLOCK_THREADS - 1) s_totalZeros = inclusive;
    __syncthreads();

    // stable split: zeros first, then ones
    unsigned int dst = b ? (s_totalZeros + (tid - zerosBefore)) : zerosBefore;
    s_keys[dst] = key;
    __syncthreads();
    key = s_keys[tid];
    __syncthreads();
  }

  keys[gid] = key;
}

template <int BLOCK_THREADS>
__global__ void findRadixOffsets(const unsigned int *keys, unsigned int *counters,
                                 unsigned int *blockOffsets, unsigned int startbit,
                                 unsigned int numBlocks) {
  __shared__ unsigned int s_digit[BLOCK_THREADS];
  __shared__ unsigned int s_start[RADIX];
  __shared__ unsigned int s_end[RADIX];

  const unsigned int tid = threadIdx.x;
  const unsigned int gid = blockIdx.x * BLOCK_THREADS + tid;

  s_digit[tid] = (keys[gid] >> startbit) & (RADIX - 1);
  if (tid < RADIX) {
    s_start[tid] = 0;
    s_end[tid] = 0;
  }
  __syncthreads();

  // the block is sorted by digit: mark where every run starts and ends
  unsigned int d = s_digit[tid];
  if (tid > 0 && d != s_digit[tid - 1]) s_start[d] = tid;
  if (tid == BLOCK_THREADS - 1 || d != s_digit[tid + 1]) s_end[d] = tid + 1;
  __syncthreads();

  if (tid < RADIX) {
    counters[tid * numBlocks + blockIdx.x] = s_end[tid] - s_start[tid];
    blockOffsets[blockIdx.x * RADIX + tid] = s_start[tid];
  }
}

template <int BLOCK_THREADS>
__global__ void reorderData(unsigned int *outKeys, const unsigned int *keys,
                            const unsigned int *offsets, const unsigned int *blockOffsets,
                            unsigned int startbit, unsigned int numBlocks) {
  __shared__ unsigned int s_offsets[RADIX];
  __shared__ unsigned int s_blockOffsets[RADIX];

  const unsigned int tid = threadIdx.x;
  const unsigned int gid = blockIdx.x * BLOCK_THREADS + tid;

  if (tid < RADIX) {
    s_offsets[tid] = offsets[tid * numBlocks + blockIdx.x];
    s_blockOffsets[tid] = blockOffsets[blockIdx.x * RADIX + tid];
  }
  __syncthreads();

  unsigned int key = keys[gid];
  unsigned int d = (key >> startbit) & (RADIX - 1);
  unsigned int globalPos = s_offsets[d] + tid - s_blockOffsets[d];
  outKeys[globalPos] = key;
}

static void exclusiveScanHost(std::vector<unsigned int> &v) {
  unsigned int acc = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    unsigned int x = v[i];
    v[i] = acc;
    acc += x;
  }
}

int main(int argc, char **argv) {
  int n = (argc > 1) ? atoi(argv[1]) : (1 << 20);
  if (n <= 0 || n % BLOCK) {
    fprintf(stderr, "n (%d) must be a positive multiple of %d\n", n, BLOCK);
    exit(1);
  }
  const unsigned int numBlocks = n / BLOCK;

  std::vector<unsigned int> h_keys(n), h_out(n);
  for (int i = 0; i < n; ++i) h_keys[i] = ((unsigned)rand() << 16) ^ (unsigned)rand();

  unsigned int *d_keys, *d_tmp, *d_counters, *d_blockOffsets;
  CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_tmp, n * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_counters, RADIX * numBlocks * sizeof(unsigned int)));
  CUDA_CHECK(cudaMalloc(&d_blockOffsets, RADIX * numBlocks * sizeof(unsigned int)));
  CUDA_CHECK(cudaMemcpy(d_keys, h_keys.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));

  std::vector<unsigned int> h_counters(RADIX * numBlocks);

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));

  dim3 grid(numBlocks), threads(BLOCK);
  for (unsigned int startbit = 0; startbit < 32; startbit += RADIX_BITS) {
    radixSortBlocks<BLOCK><<<grid, threads>>>(d_keys, startbit);
    findRadixOffsets<BLOCK><<<grid, threads>>>(d_keys, d_counters, d_blockOffsets, startbit,
                                               numBlocks);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_counters.data(), d_counters, h_counters.size() * sizeof(unsigned int),
                          cudaMemcpyDeviceToHost));
    exclusiveScanHost(h_counters);
    CUDA_CHECK(cudaMemcpy(d_counters, h_counters.data(), h_counters.size() * sizeof(unsigned int),
                          cudaMemcpyHostToDevice));
    reorderData<BLOCK><<<grid, threads>>>(d_tmp, d_keys, d_counters, d_blockOffsets, startbit,
                                          numBlocks);
    CUDA_CHECK(cudaGetLastError());
    std::swap(d_keys, d_tmp);
  }

  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));

  CUDA_CHECK(cudaMemcpy(h_out.data(), d_keys, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  std::sort(h_keys.begin(), h_keys.end());
  bool ok = std::equal(h_keys.begin(), h_keys.end(), h_out.begin());
  printf("radix sort of %d keys: %.3f ms (%.1f Mkeys/s) %s\n", n, ms, n / (ms * 1e3),
         ok ? "PASSED" : "FAILED");

  cudaFree(d_keys);
  cudaFree(d_tmp);
  cudaFree(d_counters);
  cudaFree(d_blockOffsets);
  return ok ? 0 : 1;
}
