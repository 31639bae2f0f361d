// Bottom-up merge sort of key/value pairs inside one block's shared memory, in the style of the
// CUDA SDK samples: each step merges pairs of sorted runs of length `stride`; every element finds
// its place in the merged run by a binary search in the other run (inclusive for the right run,
// exclusive for the left, so equal keys keep their order).
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

typedef unsigned int uint;

#define SHARED_SIZE_LIMIT 1024U

static inline __device__ uint smaller(uint a, uint b) { return a < b ? a : b; }

// Number of elements of data[0, len) that are <= key (ascending) — inclusive search.
__device__ uint rankInclusive(uint key, const uint *data, uint len, uint step)
{
    if (len == 0)
        return 0;
    uint pos = 0;
    for (; step > 0; step >>= 1) {
        uint next = smaller(pos + step, len);
        if (data[next - 1] <= key)
            pos = next;
    }
    return pos;
}

// Number of elements of data[0, len) that are < key — exclusive search.
__device__ uint rankExclusive(uint key, const uint *data, uint len, uint step)
{
    if (len == 0)
        return 0;
    uint pos = 0;
    for (; step > 0; step >>= 1) {
        uint next = smaller(pos + step, len);
        if (data[next - 1] < key)
            pos = next;
    }
    return pos;
}

__global__ void sortRunsShared(uint *dstKey, uint *dstVal, const uint *srcKey, const uint *srcVal,
                               uint runLength)
{
    __shared__ uint s_key[SHARED_SIZE_LIMIT];
    __shared__ uint s_val[SHARED_SIZE_LIMIT];

    srcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    srcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    dstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    dstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    s_key[threadIdx.x] = srcKey[0];
    s_val[threadIdx.x] = srcVal[0];
    s_key[threadIdx.x + SHARED_SIZE_LIMIT / 2] = srcKey[SHARED_SIZE_LIMIT / 2];
    s_val[threadIdx.x + SHARED_SIZE_LIMIT / 2] = srcVal[SHARED_SIZE_LIMIT / 2];

    for (uint stride = 1; stride < runLength; stride <<= 1) {
        uint lane = threadIdx.x & (stride - 1);
        uint *runKey = s_key + 2 * (threadIdx.x - lane);
        uint *runVal = s_val + 2 * (threadIdx.x - lane);

        __syncthreads();
        uint keyA = runKey[lane];
        uint valA = runVal[lane];
        uint keyB = runKey[lane + stride];
        uint valB = runVal[lane + stride];
        uint posA = rankExclusive(keyA, runKey + stride, stride, stride) + lane;
        uint posB = rankInclusive(keyB, runKey, stride, stride) + lane;

        __syncthreads();
        runKey[posA] = keyA;
        runVal[posA] = valA;
        runKey[posB] = keyB;
        runVal[posB] = valB;
    }

    __syncthreads();
    dstKey[0] = s_key[threadIdx.x];
    dstVal[0] = s_val[threadIdx.x];
    dstKey[SHARED_SIZE_LIMIT / 2] = s_key[threadIdx.x + SHARED_SIZE_LIMIT / 2];
    dstVal[SHARED_SIZE_LIMIT / 2] = s_val[threadIdx.x + SHARED_SIZE_LIMIT / 2];
}

static void sortRuns(uint *dstKey, uint *dstVal, uint *srcKey, uint *srcVal, uint n, uint runLength)
{
    assert(runLength == SHARED_SIZE_LIMIT);
    assert(n % SHARED_SIZE_LIMIT == 0);
    uint blocks = n / SHARED_SIZE_LIMIT;
    uint threads = SHARED_SIZE_LIMIT / 2;
    sortRunsShared<<<blocks, threads>>>(dstKey, dstVal, srcKey, srcVal, runLength);
}

int main()
{
    const uint n = 64 * SHARED_SIZE_LIMIT;
    uint *dKey, *dVal, *sKey, *sVal;
    cudaMalloc(&dKey, n * sizeof(uint));
    cudaMalloc(&dVal, n * sizeof(uint));
    cudaMalloc(&sKey, n * sizeof(uint));
    cudaMalloc(&sVal, n * sizeof(uint));
    sortRuns(dKey, dVal, sKey, sVal, n, SHARED_SIZE_LIMIT);
    cudaDeviceSynchronize();
    printf("sorted\n");
    return 0;
}
