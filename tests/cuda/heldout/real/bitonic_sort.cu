/*
 * Bitonic sort of (key, value) pairs. Arrays of up to SHARED_SIZE_LIMIT
 * elements are sorted entirely in shared memory; longer (power-of-two) arrays
 * are first sorted in SHARED_SIZE_LIMIT chunks of alternating direction and
 * then merged with global-memory and shared-memory merge stages.
 */
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cassert>
#include <vector>
#include <algorithm>

namespace cg = cooperative_groups;

typedef unsigned int uint;

#define SHARED_SIZE_LIMIT 1024U
#define UMUL(a, b) __umul24((a), (b))
#define UMAD(a, b, c) (UMUL((a), (b)) + (c))

#define checkCudaErrors(val)                                                  \
  do {                                                                        \
    cudaError_t e = (val);                                                    \
    if (e != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s returned %s\n", __FILE__, __LINE__, #val,    \
              cudaGetErrorString(e));                                         \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

__device__ inline void Comparator(uint &keyA, uint &valA, uint &keyB, uint &valB, uint dir) {
  uint t;
  if ((keyA > keyB) == dir) {
    t = keyA;
    keyA = keyB;
    keyB = t;
    t = valA;
    valA = valB;
    valB = t;
  }
}

// Sorts every arrayLength-sized segment of a SHARED_SIZE_LIMIT chunk.
__global__ void bitonicSortShared(uint *d_DstKey, uint *d_DstVal, uint *d_SrcKey,
                                  uint *d_SrcVal, uint arrayLength, uint dir) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ uint s_key[SHARED_SIZE_LIMIT];
  __shared__ uint s_val[SHARED_SIZE_LIMIT];

  d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_SrcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_DstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_DstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  s_key[threadIdx.x + 0] = d_SrcKey[0];
  s_val[threadIdx.x + 0] = d_SrcVal[0];
  s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[(SHARED_SIZE_LIMIT / 2)];
  s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[(SHARED_SIZE_LIMIT / 2)];

  for (uint size = 2; size < arrayLength; size <<= 1) {
    // bitonic merge
    uint ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);

    for (uint stride = size / 2; stride > 0; stride >>= 1) {
      cg::sync(cta);
      uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);
    }
  }

  // ddd == dir for the last bitonic merge step
  for (uint stride = arrayLength / 2; stride > 0; stride >>= 1) {
    cg::sync(cta);
    uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], dir);
  }

  cg::sync(cta);
  d_DstKey[0] = s_key[threadIdx.x + 0];
  d_DstVal[0] = s_val[threadIdx.x + 0];
  d_DstKey[(SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
  d_DstVal[(SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

// Sorts each SHARED_SIZE_LIMIT chunk, odd chunks descending, so that pairs of
// chunks form bitonic sequences.
__global__ void bitonicSortShared1(uint *d_DstKey, uint *d_DstVal, uint *d_SrcKey,
                                   uint *d_SrcVal) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ uint s_key[SHARED_SIZE_LIMIT];
  __shared__ uint s_val[SHARED_SIZE_LIMIT];

  d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_SrcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_DstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_DstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  s_key[threadIdx.x + 0] = d_SrcKey[0];
  s_val[threadIdx.x + 0] = d_SrcVal[0];
  s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[(SHARED_SIZE_LIMIT / 2)];
  s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[(SHARED_SIZE_LIMIT / 2)];

  for (uint size = 2; size < SHARED_SIZE_LIMIT; size <<= 1) {
    uint ddd = (threadIdx.x & (size / 2)) != 0;

    for (uint stride = size / 2; stride > 0; stride >>= 1) {
      cg::sync(cta);
      uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);
    }
  }

  {
    uint ddd = blockIdx.x & 1;
    for (uint stride = SHARED_SIZE_LIMIT / 2; stride > 0; stride >>= 1) {
      cg::sync(cta);
      uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);
    }
  }

  cg::sync(cta);
  d_DstKey[0] = s_key[threadIdx.x + 0];
  d_DstVal[0] = s_val[threadIdx.x + 0];
  d_DstKey[(SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
  d_DstVal[(SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

// One merge step with stride >= SHARED_SIZE_LIMIT, in place in global memory.
__global__ void bitonicMergeGlobal(uint *d_DstKey, uint *d_DstVal, uint *d_SrcKey,
                                   uint *d_SrcVal, uint arrayLength, uint size, uint stride,
                                   uint dir) {
  uint global_comparatorI = blockIdx.x * blockDim.x + threadIdx.x;
  uint comparatorI = global_comparatorI & (arrayLength / 2 - 1);

  uint ddd = dir ^ ((comparatorI & (size / 2)) != 0);
  uint pos = 2 * global_comparatorI - (global_comparatorI & (stride - 1));

  uint keyA = d_SrcKey[pos + 0];
  uint valA = d_SrcVal[pos + 0];
  uint keyB = d_SrcKey[pos + stride];
  uint valB = d_SrcVal[pos + stride];

  Comparator(keyA, valA, keyB, valB, ddd);

  d_DstKey[pos + 0] = keyA;
  d_DstVal[pos + 0] = valA;
  d_DstKey[pos + stride] = keyB;
  d_DstVal[pos + stride] = valB;
}

// The remaining merge steps (stride < SHARED_SIZE_LIMIT) of one merge stage.
__global__ void bitonicMergeShared(uint *d_DstKey, uint *d_DstVal, uint *d_SrcKey,
                                   uint *d_SrcVal, uint arrayLength, uint size, uint dir) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ uint s_key[SHARED_SIZE_LIMIT];
  __shared__ uint s_val[SHARED_SIZE_LIMIT];

  d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_SrcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_DstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  d_DstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  s_key[threadIdx.x + 0] = d_SrcKey[0];
  s_val[threadIdx.x + 0] = d_SrcVal[0];
  s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[(SHARED_SIZE_LIMIT / 2)];
  s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[(SHARED_SIZE_LIMIT / 2)];

  uint comparatorI = UMAD(blockIdx.x, blockDim.x, threadIdx.x) & ((arrayLength / 2) - 1);
  uint ddd = dir ^ ((comparatorI & (size / 2)) != 0);

  for (uint stride = SHARED_SIZE_LIMIT / 2; stride > 0; stride >>= 1) {
    cg::sync(cta);
    uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);
  }

  cg::sync(cta);
  d_DstKey[0] = s_key[threadIdx.x + 0];
  d_DstVal[0] = s_val[threadIdx.x + 0];
  d_DstKey[(SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
  d_DstVal[(SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

static uint factorRadix2(uint *log2L, uint L) {
  if (!L) {
    *log2L = 0;
    return 0;
  } else {
    for (*log2L = 0; (L & 1) == 0; L >>= 1, *log2L += 1)
      ;
    return L;
  }
}

uint bitonicSort(uint *d_DstKey, uint *d_DstVal, uint *d_SrcKey, uint *d_SrcVal,
                 uint batchSize, uint arrayLength, uint dir) {
  // Nothing to sort
  if (arrayLength < 2) return 0;

  // Only power-of-two array lengths are supported by this implementation
  uint log2L;
  uint factorizationRemainder = factorRadix2(&log2L, arrayLength);
  assert(factorizationRemainder == 1);

  dir = (dir != 0);

  uint blockCount = batchSize * arrayLength / SHARED_SIZE_LIMIT;
  uint threadCount = SHARED_SIZE_LIMIT / 2;

  if (arrayLength <= SHARED_SIZE_LIMIT) {
    assert((batchSize * arrayLength) % SHARED_SIZE_LIMIT == 0);
    bitonicSortShared<<<blockCount, threadCount>>>(d_DstKey, d_DstVal, d_SrcKey, d_SrcVal,
                                                   arrayLength, dir);
  } else {
    bitonicSortShared1<<<blockCount, threadCount>>>(d_DstKey, d_DstVal, d_SrcKey, d_SrcVal);

    for (uint size = 2 * SHARED_SIZE_LIMIT; size <= arrayLength; size <<= 1)
      for (unsigned stride = size / 2; stride > 0; stride >>= 1)
        if (stride >= SHARED_SIZE_LIMIT) {
          bitonicMergeGlobal<<<(batchSize * arrayLength) / 512, 256>>>(
              d_DstKey, d_DstVal, d_DstKey, d_DstVal, arrayLength, size, stride, dir);
        } else {
          bitonicMergeShared<<<blockCount, threadCount>>>(d_DstKey, d_DstVal, d_DstKey,
                                                          d_DstVal, arrayLength, size, dir);
          break;
        }
  }

  return threadCount;
}

int main(int argc, char **argv) {
  uint N = (argc > 1) ? (uint)atoi(argv[1]) : 1048576;
  uint arrayLength = (argc > 2) ? (uint)atoi(argv[2]) : N;
  const uint DIR = 1;

  if (N < SHARED_SIZE_LIMIT || arrayLength < 2 || N % arrayLength != 0 ||
      (arrayLength & (arrayLength - 1)) != 0 || N % SHARED_SIZE_LIMIT != 0) {
    fprintf(stderr, "N must be a multiple of %u and of a power-of-two arrayLength\n",
            SHARED_SIZE_LIMIT);
    exit(EXIT_FAILURE);
  }
  uint batchSize = N / arrayLength;

  std::vector<uint> h_InputKey(N), h_InputVal(N), h_OutputKey(N), h_OutputVal(N);
  srand(2001);
  for (uint i = 0; i < N; i++) {
    h_InputKey[i] = rand() % 65536;
    h_InputVal[i] = i;
  }

  uint *d_InputKey, *d_InputVal, *d_OutputKey, *d_OutputVal;
  checkCudaErrors(cudaMalloc((void **)&d_InputKey, N * sizeof(uint)));
  checkCudaErrors(cudaMalloc((void **)&d_InputVal, N * sizeof(uint)));
  checkCudaErrors(cudaMalloc((void **)&d_OutputKey, N * sizeof(uint)));
  checkCudaErrors(cudaMalloc((void **)&d_OutputVal, N * sizeof(uint)));
  checkCudaErrors(cudaMemcpy(d_InputKey, h_InputKey.data(), N * sizeof(uint), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_InputVal, h_InputVal.data(), N * sizeof(uint), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));
  uint threadCount = bitonicSort(d_OutputKey, d_OutputVal, d_InputKey, d_InputVal, batchSize,
                                 arrayLength, DIR);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
  printf("bitonicSort: %u arrays of %u, %u threads/block, %.3f ms\n", batchSize, arrayLength,
         threadCount, ms);

  checkCudaErrors(cudaMemcpy(h_OutputKey.data(), d_OutputKey, N * sizeof(uint), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (uint b = 0; b < batchSize; ++b) {
    std::vector<uint> ref(h_InputKey.begin() + b * arrayLength,
                          h_InputKey.begin() + (b + 1) * arrayLength);
    std::sort(ref.begin(), ref.end());
    for (uint i = 0; i < arrayLength; ++i)
      if (ref[i] != h_OutputKey[b * arrayLength + i]) ok = false;
  }
  printf("%s\n", ok ? "PASSED" : "FAILED");

  cudaFree(d_InputKey);
  cudaFree(d_InputVal);
  cudaFree(d_OutputKey);
  cudaFree(d_OutputVal);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
