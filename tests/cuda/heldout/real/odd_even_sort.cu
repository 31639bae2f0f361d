// Batcher's odd-even merge sort of unsigned keys with values.
//   oddEvenMergeSortShared: sorts each SHARED_SIZE_LIMIT chunk in shared memory;
//   oddEvenMergeGlobal:     one merge step (size, stride) over the whole array.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cassert>
#include <algorithm>
#include <vector>

namespace cg = cooperative_groups;

typedef unsigned int uint;

#define SHARED_SIZE_LIMIT 1024U
#define GLOBAL_THREADS 256U

#define checkCudaErrors(val)                                                  \
  do {                                                                        \
    cudaError_t e = (val);                                                    \
    if (e != cudaSuccess) {                                                   \
      fprintf(stderr, "CUDA error at %s:%d: %s\n", __FILE__, __LINE__,        \
              cudaGetErrorString(e));                                         \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

__device__ inline void Comparator(uint &keyA, uint &valA, uint &keyB, uint &valB, uint arrowDir) {
  if ((keyA > keyB) == arrowDir) {
    uint t = keyA;
    keyA = keyB;
    keyB = t;
    t = valA;
    valA = valB;
    valB = t;
  }
}

__global__ void oddEvenMergeSortShared(uint *d_DstKey, uint *d_DstVal, const uint *d_SrcKey,
                                       const uint *d_SrcVal, uint arrayLength, uint dir) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ uint s_key[SHARED_SIZE_LIMIT];
  __shared__ uint s_val[SHARED_SIZE_LIMIT];

  const uint base = blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  s_key[threadIdx.x + 0] = d_SrcKey[base];
  s_val[threadIdx.x + 0] = d_SrcVal[base];
  s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[base + SHARED_SIZE_LIMIT / 2];
  s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[base + SHARED_SIZE_LIMIT / 2];

  for (uint size = 2; size <= arrayLength; size <<= 1) {
    uint stride = size / 2;
    uint offset = threadIdx.x & (stride - 1);

    {
      cg::sync(cta);
      uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], dir);
      stride >>= 1;
    }

    for (; stride > 0; stride >>= 1) {
      cg::sync(cta);
      uint pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));

      if (offset >= stride)
        Comparator(s_key[pos - stride], s_val[pos - stride], s_key[pos + 0], s_val[pos + 0], dir);
    }
  }

  cg::sync(cta);
  d_DstKey[base] = s_key[threadIdx.x + 0];
  d_DstVal[base] = s_val[threadIdx.x + 0];
  d_DstKey[base + SHARED_SIZE_LIMIT / 2] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
  d_DstVal[base + SHARED_SIZE_LIMIT / 2] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

__global__ void oddEvenMergeGlobal(uint *d_DstKey, uint *d_DstVal, uint *d_SrcKey,
                                   uint *d_SrcVal, uint arrayLength, uint size, uint stride,
                                   uint dir) {
  uint global_comparatorI = blockIdx.x * blockDim.x + threadIdx.x;

  // Odd-even merge
  uint pos = 2 * global_comparatorI - (global_comparatorI & (stride - 1));

  if (stride < size / 2) {
    uint offset = global_comparatorI & ((size / 2) - 1);

    if (offset >= stride) {
      uint keyA = d_SrcKey[pos - stride];
      uint valA = d_SrcVal[pos - stride];
      uint keyB = d_SrcKey[pos + 0];
      uint valB = d_SrcVal[pos + 0];

      Comparator(keyA, valA, keyB, valB, dir);

      d_DstKey[pos - stride] = keyA;
      d_DstVal[pos - stride] = valA;
      d_DstKey[pos + 0] = keyB;
      d_DstVal[pos + 0] = valB;
    }
  } else {
    uint keyA = d_SrcKey[pos + 0];
    uint valA = d_SrcVal[pos + 0];
    uint keyB = d_SrcKey[pos + stride];
    uint valB = d_SrcVal[pos + stride];

    Comparator(keyA, valA, keyB, valB, dir);

    d_DstKey[pos + 0] = keyA;
    d_DstVal[pos + 0] = valA;
    d_DstKey[pos + stride] = keyB;
    d_DstVal[pos + stride] = valB;
  }
}

static bool isPowerOfTwo(uint x) { return x != 0 && (x & (x - 1)) == 0; }

void oddEvenMergeSort(uint *d_DstKey, uint *d_DstVal, uint *d_SrcKey, uint *d_SrcVal,
                      uint batchSize, uint arrayLength, uint dir) {
  if (arrayLength < 2) return;
  assert(isPowerOfTwo(arrayLength));
  assert((batchSize * arrayLength) % SHARED_SIZE_LIMIT == 0);

  dir = (dir != 0);
  uint blockCount = (batchSize * arrayLength) / SHARED_SIZE_LIMIT;
  uint threadCount = SHARED_SIZE_LIMIT / 2;

  if (arrayLength <= SHARED_SIZE_LIMIT) {
    oddEvenMergeSortShared<<<blockCount, threadCount>>>(d_DstKey, d_DstVal, d_SrcKey, d_SrcVal,
                                                        arrayLength, dir);
  } else {
    oddEvenMergeSortShared<<<blockCount, threadCount>>>(d_DstKey, d_DstVal, d_SrcKey, d_SrcVal,
                                                        SHARED_SIZE_LIMIT, dir);
    for (uint size = 2 * SHARED_SIZE_LIMIT; size <= arrayLength; size <<= 1)
      for (uint stride = size / 2; stride > 0; stride >>= 1) {
        oddEvenMergeGlobal<<<(batchSize * arrayLength) / (2 * GLOBAL_THREADS), GLOBAL_THREADS>>>(
            d_DstKey, d_DstVal, d_DstKey, d_DstVal, arrayLength, size, stride, dir);
      }
  }
  checkCudaErrors(cudaGetLastError());
}

int main(int argc, char **argv) {
  uint arrayLength = (argc > 1) ? (uint)atoi(argv[1]) : 65536;
  uint batchSize = (argc > 2) ? (uint)atoi(argv[2]) : 4;

  if (!isPowerOfTwo(arrayLength) || batchSize == 0 ||
      (batchSize * arrayLength) % SHARED_SIZE_LIMIT != 0) {
    fprintf(stderr, "arrayLength must be a power of two and batch*length a multiple of %u\n",
            SHARED_SIZE_LIMIT);
    exit(EXIT_FAILURE);
  }
  const uint N = batchSize * arrayLength;

  std::vector<uint> hKey(N), hVal(N), hOut(N);
  for (uint i = 0; i < N; ++i) {
    hKey[i] = rand();
    hVal[i] = i;
  }

  uint *dSrcKey, *dSrcVal, *dDstKey, *dDstVal;
  checkCudaErrors(cudaMalloc(&dSrcKey, N * sizeof(uint)));
  checkCudaErrors(cudaMalloc(&dSrcVal, N * sizeof(uint)));
  checkCudaErrors(cudaMalloc(&dDstKey, N * sizeof(uint)));
  checkCudaErrors(cudaMalloc(&dDstVal, N * sizeof(uint)));
  checkCudaErrors(cudaMemcpy(dSrcKey, hKey.data(), N * sizeof(uint), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(dSrcVal, hVal.data(), N * sizeof(uint), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));
  oddEvenMergeSort(dDstKey, dDstVal, dSrcKey, dSrcVal, batchSize, arrayLength, 1);
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));

  checkCudaErrors(cudaMemcpy(hOut.data(), dDstKey, N * sizeof(uint), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (uint b = 0; b < batchSize; ++b) {
    std::sort(hKey.begin() + b * arrayLength, hKey.begin() + (b + 1) * arrayLength);
    for (uint i = 0; i < arrayLength; ++i) bad += hKey[b * arrayLength + i] != hOut[b * arrayLength + i];
  }
  printf("odd-even merge sort: %u x %u keys, %.3f ms, %s\n", batchSize, arrayLength, ms,
         bad ? "FAILED" : "PASSED");

  cudaFree(dSrcKey);
  cudaFree(dSrcVal);
  cudaFree(dDstKey);
  cudaFree(dDstVal);
  return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
