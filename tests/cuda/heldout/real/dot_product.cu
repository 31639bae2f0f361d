// Dot product, "CUDA by Example" style: each block reduces its partial sums in
// a shared cache and writes one value per block; the host adds the block
// results. A second kernel accumulates the block results with atomicAdd.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

static void HandleError(cudaError_t err, const char *file, int line) {
  if (err != cudaSuccess) {
    printf("%s in %s at line %d\n", cudaGetErrorString(err), file, line);
    exit(EXIT_FAILURE);
  }
}
#define HANDLE_ERROR(err) (HandleError(err, __FILE__, __LINE__))

#define imin(a, b) (a < b ? a : b)

const int N = 33 * 1024;
const int threadsPerBlock = 256;
const int blocksPerGrid = imin(32, (N + threadsPerBlock - 1) / threadsPerBlock);

__global__ void dot(float *a, float *b, float *c) {
  __shared__ float cache[threadsPerBlock];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int cacheIndex = threadIdx.x;

  float temp = 0;
  while (tid < N) {
    temp += a[tid] * b[tid];
    tid += blockDim.x * gridDim.x;
  }

  // set the cache values
  cache[cacheIndex] = temp;

  // synchronize threads in this block
  __syncthreads();

  // for reductions, threadsPerBlock must be a power of 2
  int i = blockDim.x / 2;
  while (i != 0) {
    if (cacheIndex < i) cache[cacheIndex] += cache[cacheIndex + i];
    __syncthreads();
    i /= 2;
  }

  if (cacheIndex == 0) c[blockIdx.x] = cache[0];
}

__global__ void dot_atomic(const float *a, const float *b, float *result) {
  __shared__ float cache[threadsPerBlock];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  int cacheIndex = threadIdx.x;

  float temp = 0;
  for (; tid < N; tid += blockDim.x * gridDim.x) temp += a[tid] * b[tid];
  cache[cacheIndex] = temp;
  __syncthreads();

  for (int i = blockDim.x / 2; i > 0; i >>= 1) {
    if (cacheIndex < i) cache[cacheIndex] += cache[cacheIndex + i];
    __syncthreads();
  }

  if (cacheIndex == 0) atomicAdd(result, cache[0]);
}

#define sum_squares(x) (x * (x + 1) * (2 * x + 1) / 6)

int main(void) {
  float *a, *b, c, *partial_c;
  float *dev_a, *dev_b, *dev_partial_c, *dev_result;

  // allocate memory on the cpu side
  a = (float *)malloc(N * sizeof(float));
  b = (float *)malloc(N * sizeof(float));
  partial_c = (float *)malloc(blocksPerGrid * sizeof(float));

  // allocate the memory on the GPU
  HANDLE_ERROR(cudaMalloc((void **)&dev_a, N * sizeof(float)));
  HANDLE_ERROR(cudaMalloc((void **)&dev_b, N * sizeof(float)));
  HANDLE_ERROR(cudaMalloc((void **)&dev_partial_c, blocksPerGrid * sizeof(float)));
  HANDLE_ERROR(cudaMalloc((void **)&dev_result, sizeof(float)));

  // fill in the host memory with data
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = i * 2;
  }

  HANDLE_ERROR(cudaMemcpy(dev_a, a, N * sizeof(float), cudaMemcpyHostToDevice));
  HANDLE_ERROR(cudaMemcpy(dev_b, b, N * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  HANDLE_ERROR(cudaEventCreate(&start));
  HANDLE_ERROR(cudaEventCreate(&stop));
  HANDLE_ERROR(cudaEventRecord(start, 0));

  dot<<<blocksPerGrid, threadsPerBlock>>>(dev_a, dev_b, dev_partial_c);

  HANDLE_ERROR(cudaEventRecord(stop, 0));
  HANDLE_ERROR(cudaEventSynchronize(stop));
  float elapsedTime;
  HANDLE_ERROR(cudaEventElapsedTime(&elapsedTime, start, stop));
  printf("Time to generate:  %3.1f ms\n", elapsedTime);

  // copy the array 'c' back from the GPU to the CPU
  HANDLE_ERROR(cudaMemcpy(partial_c, dev_partial_c, blocksPerGrid * sizeof(float),
                          cudaMemcpyDeviceToHost));

  // finish up on the CPU side
  c = 0;
  for (int i = 0; i < blocksPerGrid; i++) c += partial_c[i];
  printf("Does GPU value %.6g = %.6g?\n", c, 2 * sum_squares((float)(N - 1)));

  HANDLE_ERROR(cudaMemset(dev_result, 0, sizeof(float)));
  dot_atomic<<<blocksPerGrid, threadsPerBlock>>>(dev_a, dev_b, dev_result);
  HANDLE_ERROR(cudaGetLastError());
  float r;
  HANDLE_ERROR(cudaMemcpy(&r, dev_result, sizeof(float), cudaMemcpyDeviceToHost));
  printf("Atomic version: %.6g\n", r);

  // free memory on the gpu side
  HANDLE_ERROR(cudaFree(dev_a));
  HANDLE_ERROR(cudaFree(dev_b));
  HANDLE_ERROR(cudaFree(dev_partial_c));
  HANDLE_ERROR(cudaFree(dev_result));

  // free memory on the cpu side
  free(a);
  free(b);
  free(partial_c);
  return 0;
}
