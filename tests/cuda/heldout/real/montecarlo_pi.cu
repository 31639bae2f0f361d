// Monte-Carlo estimate of pi: every thread draws samplesPerThread points in the
// unit square with cuRAND and counts the hits inside the quarter circle; the
// block reduces its counts in shared memory (tree down to one warp, then an
// unrolled warp tail) and writes one partial count per block.
// usage: montecarlo_pi [blocks] [samplesPerThread]
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define THREADS 256

#define CUDA_CALL(x)                                                         \
  do {                                                                       \
    if ((x) != cudaSuccess) {                                                \
      printf("Error at %s:%d\n", __FILE__, __LINE__);                        \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  } while (0)

__global__ void setup_kernel(curandState *state, unsigned long long seed) {
  int id = threadIdx.x + blockIdx.x * THREADS;
  // each thread gets the same seed, a different sequence number, no offset
  curand_init(seed, id, 0, &state[id]);
}

__device__ void warpReduce(unsigned int *sdata, unsigned int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__global__ void monte_carlo_pi(curandState *state, unsigned int samplesPerThread,
                               unsigned int *blockHits) {
  __shared__ unsigned int hits[THREADS];
  unsigned int tid = threadIdx.x;
  int id = threadIdx.x + blockIdx.x * THREADS;

  // copy state to local memory for efficiency
  curandState localState = state[id];
  unsigned int count = 0;
  for (unsigned int i = 0; i < samplesPerThread; i++) {
    float x = curand_uniform(&localState);
    float y = curand_uniform(&localState);
    if (x * x + y * y <= 1.0f) count++;
  }
  state[id] = localState;

  hits[tid] = count;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) hits[tid] += hits[tid + s];
    __syncthreads();
  }

  if (tid < 32) warpReduce(hits, tid);

  if (tid == 0) blockHits[blockIdx.x] = hits[0];
}

int main(int argc, char *argv[]) {
  int blocks = (argc > 1) ? atoi(argv[1]) : 256;
  int samplesPerThread = (argc > 2) ? atoi(argv[2]) : 10000;
  if (blocks <= 0 || samplesPerThread <= 0) {
    fprintf(stderr, "usage: %s [blocks] [samples per thread]\n", argv[0]);
    exit(EXIT_FAILURE);
  }
  const int totalThreads = blocks * THREADS;

  curandState *devStates;
  unsigned int *devHits;
  CUDA_CALL(cudaMalloc((void **)&devStates, totalThreads * sizeof(curandState)));
  CUDA_CALL(cudaMalloc((void **)&devHits, blocks * sizeof(unsigned int)));

  setup_kernel<<<blocks, THREADS>>>(devStates, 1234ULL);
  CUDA_CALL(cudaGetLastError());

  cudaEvent_t start, stop;
  CUDA_CALL(cudaEventCreate(&start));
  CUDA_CALL(cudaEventCreate(&stop));
  CUDA_CALL(cudaEventRecord(start));
  monte_carlo_pi<<<blocks, THREADS>>>(devStates, samplesPerThread, devHits);
  CUDA_CALL(cudaGetLastError());
  CUDA_CALL(cudaEventRecord(stop));
  CUDA_CALL(cudaEventSynchronize(stop));
  float ms;
  CUDA_CALL(cudaEventElapsedTime(&ms, start, stop));

  std::vector<unsigned int> hostHits(blocks);
  CUDA_CALL(cudaMemcpy(hostHits.data(), devHits, blocks * sizeof(unsigned int),
                       cudaMemcpyDeviceToHost));
  unsigned long long total = 0;
  for (int b = 0; b < blocks; ++b) total += hostHits[b];
  double samples = (double)totalThreads * samplesPerThread;
  double pi = 4.0 * (double)total / samples;
  printf("pi ~= %.8f (error %.2e) from %.0f samples in %.3f ms\n", pi, fabs(pi - M_PI), samples, ms);

  CUDA_CALL(cudaFree(devStates));
  CUDA_CALL(cudaFree(devHits));
  return 0;
}
