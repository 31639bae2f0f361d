// Letter-frequency histogram of a text buffer (letters grouped four per bin:
// a-d, e-h, ..., y-z) with per-block privatized bins in shared memory.
// The kernel is run repeatedly for timing, so it resets the output itself.
// usage: text_histogram [bytes] [repetitions]
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define NUM_BINS 7
#define THREADS 256
#define BLOCKS 120

#define CHECK(call)                                                          \
  {                                                                          \
    const cudaError_t error = call;                                          \
    if (error != cudaSuccess) {                                              \
      fprintf(stderr, "Error: %s:%d, code:%d, reason: %s\n", __FILE__,       \
              __LINE__, error, cudaGetErrorString(error));                   \
      exit(1);                                                               \
    }                                                                        \
  }

__global__ void histo_privatized_kernel(const unsigned char *buffer, unsigned int size,
                                        unsigned int *histo) {
  __shared__ unsigned int histo_s[NUM_BINS];

  if (blockIdx.x == 0) {
    for (unsigned int binIdx = threadIdx.x; binIdx < NUM_BINS; binIdx += blockDim.x)
      histo[binIdx] = 0u;
  }
  for (unsigned int binIdx = threadIdx.x; binIdx < NUM_BINS; binIdx += blockDim.x)
    histo_s[binIdx] = 0u;
  __syncthreads();

  unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned int i = tid; i < size; i += blockDim.x * gridDim.x) {
    int alphabet_position = buffer[i] - 'a';
    if (alphabet_position >= 0 && alphabet_position < 26)
      atomicAdd(&(histo_s[alphabet_position / 4]), 1);
  }
  __syncthreads();

  for (unsigned int binIdx = threadIdx.x; binIdx < NUM_BINS; binIdx += blockDim.x)
    atomicAdd(&(histo[binIdx]), histo_s[binIdx]);
}

int main(int argc, char **argv) {
  unsigned int size = (argc > 1) ? (unsigned int)atoi(argv[1]) : (1u << 24);
  int reps = (argc > 2) ? atoi(argv[2]) : 10;
  if (size == 0 || reps <= 0) {
    fprintf(stderr, "usage: %s [bytes > 0] [repetitions > 0]\n", argv[0]);
    exit(EXIT_FAILURE);
  }

  const char *words[] = {"programming ", "massively ", "parallel ", "processors ",
                         "hands on ", "approach ", "cuda ", "histogram "};
  std::vector<unsigned char> h_buf(size);
  for (unsigned int i = 0; i < size;) {
    const char *w = words[rand() % 8];
    for (size_t k = 0; w[k] && i < size; ++k) h_buf[i++] = (unsigned char)w[k];
  }

  unsigned int h_ref[NUM_BINS] = {0}, h_histo[NUM_BINS];
  for (unsigned int i = 0; i < size; ++i) {
    int p = h_buf[i] - 'a';
    if (p >= 0 && p < 26) h_ref[p / 4]++;
  }

  unsigned char *d_buf;
  unsigned int *d_histo;
  CHECK(cudaMalloc(&d_buf, size));
  CHECK(cudaMalloc(&d_histo, NUM_BINS * sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_buf, h_buf.data(), size, cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  for (int r = 0; r < reps; ++r) {
    histo_privatized_kernel<<<BLOCKS, THREADS>>>(d_buf, size, d_histo);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms;
  CHECK(cudaEventElapsedTime(&ms, start, stop));

  CHECK(cudaMemcpy(h_histo, d_histo, sizeof(h_histo), cudaMemcpyDeviceToHost));
  bool ok = memcmp(h_histo, h_ref, sizeof(h_ref)) == 0;
  printf("%u bytes, %.3f ms per run, %s\n", size, ms / reps, ok ? "match" : "MISMATCH");
  for (int b = 0; b < NUM_BINS; ++b) printf("  bin %d: %u (ref %u)\n", b, h_histo[b], h_ref[b]);

  cudaFree(d_buf);
  cudaFree(d_histo);
  return ok ? 0 : 1;
}
