// Token-frequency histogram for a data-loader statistic: per-block privatized bins in shared
// memory (shared-memory atomics), merged into the global histogram at the end. The number of
// bins is a template parameter; the block size is the launch's. Bug: the barrier between the
// counting loop and the merge is missing, so a bin may be merged before the block is done with it.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

template <int BINS>
__global__ void token_histogram(const uint16_t *__restrict__ tokens, size_t n, unsigned int *__restrict__ hist) {
  __shared__ unsigned int bins[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) bins[b] = 0;
  __syncthreads();

  const size_t stride = static_cast<size_t>(blockDim.x) * gridDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    atomicAdd(&bins[tokens[i] % BINS], 1u);

  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (bins[b] != 0) atomicAdd(&hist[b], bins[b]);
}

int main() {
  const size_t n = size_t(1) << 26;
  uint16_t *tokens;
  unsigned int *hist;
  cudaMalloc(&tokens, n * sizeof(uint16_t));
  cudaMalloc(&hist, 4096 * sizeof(unsigned int));
  cudaMemset(hist, 0, 4096 * sizeof(unsigned int));
  token_histogram<4096><<<256, 512>>>(tokens, n, hist);
  cudaDeviceSynchronize();
  unsigned int h0 = 0;
  cudaMemcpy(&h0, hist, sizeof(h0), cudaMemcpyDeviceToHost);
  printf("%u\n", h0);
  return 0;
}
