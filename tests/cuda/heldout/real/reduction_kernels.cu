/*
 * Parallel reduction: several classic variants of the block-level sum
 * (interleaved addressing, strided indexing, sequential addressing and
 * "first add during load" with a warp-level tail using cooperative groups).
 *
 * usage: reduction_kernels [n] [threads] [kernel]
 */
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

namespace cg = cooperative_groups;

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

template <typename T>
void check(T result, char const *const func, const char *const file,
           int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line,
            static_cast<unsigned int>(result), cudaGetErrorString(result),
            func);
    exit(EXIT_FAILURE);
  }
}

// Utility class used to avoid linker errors with extern
// unsized shared memory arrays with templated type
template <class T>
struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }

  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

/* Interleaved addressing with divergent branching. */
template <class T>
__global__ void reduce0(const T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? g_idata[i] : 0;
  cg::sync(cta);

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if ((tid % (2 * s)) == 0) {
      sdata[tid] += sdata[tid + s];
    }
    cg::sync(cta);
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

/* Interleaved addressing with a strided index and non-divergent branch. */
template <class T>
__global__ void reduce1(const T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? g_idata[i] : 0;
  cg::sync(cta);

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    cg::sync(cta);
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

/* Sequential addressing. */
template <class T>
__global__ void reduce2(const T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

  sdata[tid] = (i < n) ? g_idata[i] : 0;
  cg::sync(cta);

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    cg::sync(cta);
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

/* First add during global load, shared-memory tree down to one warp, then
 * the last warp reduces with shuffles through a 32-thread tile. */
template <class T, unsigned int blockSize>
__global__ void reduce4(const T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;

  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n) mySum += g_idata[i + blockSize];

  sdata[tid] = mySum;
  cg::sync(cta);

  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      sdata[tid] = mySum = mySum + sdata[tid + s];
    }
    cg::sync(cta);
  }

  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);

  if (cta.thread_rank() < 32) {
    // Fetch final intermediate sum from 2nd warp
    if (blockSize >= 64) mySum += sdata[tid + 32];
    // Reduce final warp using shuffle
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2) {
      mySum += tile32.shfl_down(mySum, offset);
    }
  }

  if (cta.thread_rank() == 0) g_odata[blockIdx.x] = mySum;
}

static bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }

static void getNumBlocksAndThreads(int whichKernel, int n, int threads,
                                   int &blocks) {
  if (whichKernel < 3) {
    blocks = (n + threads - 1) / threads;
  } else {
    blocks = (n + (threads * 2 - 1)) / (threads * 2);
  }
}

template <class T>
void reduce(int size, int threads, int blocks, int whichKernel, T *d_idata,
            T *d_odata) {
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 1, 1);

  // when there is only one warp per block, we need to allocate two warps
  // worth of shared memory so that we don't index shared memory out of bounds
  int smemSize =
      (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);

  switch (whichKernel) {
    case 0:
      reduce0<T><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 1:
      reduce1<T><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 2:
      reduce2<T><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
      break;
    case 4:
    default:
      switch (threads) {
        case 1024:
          reduce4<T, 1024><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
          break;
        case 512:
          reduce4<T, 512><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
          break;
        case 256:
          reduce4<T, 256><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
          break;
        case 128:
          reduce4<T, 128><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
          break;
        case 64:
          reduce4<T, 64><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
          break;
        case 32:
          reduce4<T, 32><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
          break;
      }
      break;
  }
}

int main(int argc, char **argv) {
  int size = (argc > 1) ? atoi(argv[1]) : (1 << 24);
  int threads = (argc > 2) ? atoi(argv[2]) : 256;
  int whichKernel = (argc > 3) ? atoi(argv[3]) : 4;

  if (size <= 0) {
    fprintf(stderr, "size must be positive\n");
    exit(EXIT_FAILURE);
  }
  if (threads < 32 || threads > 1024 || !isPow2(threads)) {
    fprintf(stderr, "threads must be a power of two in [32, 1024]\n");
    exit(EXIT_FAILURE);
  }
  if (whichKernel == 3 || whichKernel < 0 || whichKernel > 4) {
    fprintf(stderr, "kernel must be 0, 1, 2 or 4\n");
    exit(EXIT_FAILURE);
  }

  std::vector<float> h_idata(size);
  for (int i = 0; i < size; i++) {
    h_idata[i] = (rand() & 0xFF) / (float)RAND_MAX;
  }

  int blocks = 0;
  getNumBlocksAndThreads(whichKernel, size, threads, blocks);
  printf("%d elements, %d threads (max), %d blocks, kernel %d\n", size,
         threads, blocks, whichKernel);

  float *d_idata = NULL, *d_odata = NULL;
  checkCudaErrors(cudaMalloc((void **)&d_idata, size * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_odata, blocks * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_idata, h_idata.data(), size * sizeof(float),
                             cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));

  const int testIterations = 100;
  checkCudaErrors(cudaEventRecord(start));
  for (int it = 0; it < testIterations; ++it) {
    reduce<float>(size, threads, blocks, whichKernel, d_idata, d_odata);
  }
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  checkCudaErrors(cudaGetLastError());

  float ms = 0.0f;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
  double avgSec = 1.0e-3 * ms / testIterations;

  std::vector<float> h_odata(blocks);
  checkCudaErrors(cudaMemcpy(h_odata.data(), d_odata, blocks * sizeof(float),
                             cudaMemcpyDeviceToHost));
  double gpu_result = 0.0;
  for (int i = 0; i < blocks; i++) gpu_result += h_odata[i];

  double cpu_result = 0.0;
  for (int i = 0; i < size; i++) cpu_result += h_idata[i];

  printf("Reduction, Throughput = %.4f GB/s, Time = %.5f s, Size = %u Elements\n",
         1.0e-9 * ((double)size * sizeof(float)) / avgSec, avgSec, size);
  printf("GPU result = %.8f, CPU result = %.8f\n", gpu_result, cpu_result);

  checkCudaErrors(cudaFree(d_idata));
  checkCudaErrors(cudaFree(d_odata));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));

  bool ok = fabs(gpu_result - cpu_result) < 1e-3 * fabs(cpu_result) + 1e-6;
  printf("%s\n", ok ? "Test passed" : "Test failed!");
  exit(ok ? EXIT_SUCCESS : EXIT_FAILURE);
}
