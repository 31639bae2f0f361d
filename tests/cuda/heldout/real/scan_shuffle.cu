// Inclusive prefix sum with warp shuffles.
//   level 1: each warp scans its 32 values with __shfl_up_sync, the warp totals
//            are scanned by warp 0, and added back; block totals are saved.
//   level 2: one block scans the block totals.
//   level 3: the scanned totals are added to the following blocks.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define checkCudaErrors(call)                                                \
  {                                                                          \
    cudaError_t err = call;                                                  \
    if (cudaSuccess != err) {                                                \
      fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n",          \
              __FILE__, __LINE__, cudaGetErrorString(err));                  \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  }

constexpr int WARP_SIZE = 32;
constexpr int MAX_BLOCK = 1024;

__device__ __forceinline__ int warpInclusiveScan(int v, int lane) {
#pragma unroll
  for (int offset = 1; offset < WARP_SIZE; offset <<= 1) {
    int y = __shfl_up_sync(0xffffffff, v, offset);
    if (lane >= offset) v += y;
  }
  return v;
}

template <int BLOCK>
__global__ void blockScan(const int *__restrict__ in, int *__restrict__ out,
                          int *__restrict__ blockSums, int n) {
  __shared__ int warpSums[BLOCK / WARP_SIZE];

  const int gid = blockIdx.x * BLOCK + threadIdx.x;
  const int lane = threadIdx.x & (WARP_SIZE - 1);
  const int warp = threadIdx.x / WARP_SIZE;

  int v = (gid < n) ? __ldg(&in[gid]) : 0;
  v = warpInclusiveScan(v, lane);

  if (lane == WARP_SIZE - 1) warpSums[warp] = v;
  __syncthreads();

  if (warp == 0) {
    int s = (lane < BLOCK / WARP_SIZE) ? warpSums[lane] : 0;
    s = warpInclusiveScan(s, lane);
    if (lane < BLOCK / WARP_SIZE) warpSums[lane] = s;
  }
  __syncthreads();

  if (warp > 0) v += warpSums[warp - 1];
  if (gid < n) out[gid] = v;
  if (threadIdx.x == BLOCK - 1) blockSums[blockIdx.x] = v;
}

template <int BLOCK>
__global__ void addBlockOffsets(int *data, const int *scannedSums, int n) {
  const int gid = blockIdx.x * BLOCK + threadIdx.x;
  if (blockIdx.x > 0 && gid < n) data[gid] += scannedSums[blockIdx.x - 1];
}

template <int BLOCK>
void runScan(const int *d_in, int *d_out, int *d_sums, int *d_sumsScan,
             int *d_dummy, int n) {
  const int numBlocks = (n + BLOCK - 1) / BLOCK;
  blockScan<BLOCK><<<numBlocks, BLOCK>>>(d_in, d_out, d_sums, n);
  checkCudaErrors(cudaGetLastError());
  if (numBlocks > 1) {
    blockScan<MAX_BLOCK><<<1, MAX_BLOCK>>>(d_sums, d_sumsScan, d_dummy, numBlocks);
    checkCudaErrors(cudaGetLastError());
    addBlockOffsets<BLOCK><<<numBlocks, BLOCK>>>(d_out, d_sumsScan, n);
    checkCudaErrors(cudaGetLastError());
  }
}

int main(int argc, char **argv) {
  int n = (argc > 1) ? atoi(argv[1]) : 1000000;
  int blockSize = (argc > 2) ? atoi(argv[2]) : 256;

  if (n <= 0) {
    fprintf(stderr, "n must be positive\n");
    exit(EXIT_FAILURE);
  }
  if (blockSize != 128 && blockSize != 256 && blockSize != 512 && blockSize != 1024) {
    fprintf(stderr, "block size must be 128, 256, 512 or 1024\n");
    exit(EXIT_FAILURE);
  }
  int numBlocks = (n + blockSize - 1) / blockSize;
  if (numBlocks > MAX_BLOCK) {
    fprintf(stderr, "n too large for a two-level scan with block size %d\n", blockSize);
    exit(EXIT_FAILURE);
  }

  std::vector<int> h_in(n), h_out(n);
  for (int i = 0; i < n; ++i) h_in[i] = rand() % 10;

  int *d_in, *d_out, *d_sums, *d_sumsScan, *d_dummy;
  checkCudaErrors(cudaMalloc(&d_in, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_out, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_sums, MAX_BLOCK * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_sumsScan, MAX_BLOCK * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_dummy, sizeof(int)));
  checkCudaErrors(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));

  switch (blockSize) {
    case 128:
      runScan<128>(d_in, d_out, d_sums, d_sumsScan, d_dummy, n);
      break;
    case 256:
      runScan<256>(d_in, d_out, d_sums, d_sumsScan, d_dummy, n);
      break;
    case 512:
      runScan<512>(d_in, d_out, d_sums, d_sumsScan, d_dummy, n);
      break;
    case 1024:
      runScan<1024>(d_in, d_out, d_sums, d_sumsScan, d_dummy, n);
      break;
  }

  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms = 0.f;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));

  checkCudaErrors(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  long long acc = 0;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    acc += h_in[i];
    if (h_out[i] != acc) ++bad;
  }
  printf("n=%d block=%d time=%.3f ms errors=%d\n", n, blockSize, ms, bad);

  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_sums);
  cudaFree(d_sumsScan);
  cudaFree(d_dummy);
  return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
