// Matrix transpose: naive, coalesced through a padded shared tile, and the
// diagonal block-ordering variant (square matrices only) that avoids
// partition camping. Each block transposes a TILE_DIM x TILE_DIM tile with
// TILE_DIM x BLOCK_ROWS threads, each thread handling TILE_DIM/BLOCK_ROWS elements.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define TILE_DIM 32
#define BLOCK_ROWS 8
#define NUM_REPS 100

#define checkCudaErrors(ans) \
  { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(cudaError_t code, const char *file, int line) {
  if (code != cudaSuccess) {
    fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
    exit(code);
  }
}

__global__ void transposeNaive(float *odata, const float *idata, int width, int height) {
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;

  int index_in = xIndex + width * yIndex;
  int index_out = yIndex + height * xIndex;

  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    odata[index_out + i] = idata[index_in + i * width];
  }
}

__global__ void transposeNoBankConflicts(float *odata, const float *idata, int width,
                                         int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + (yIndex)*width;

  xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + (yIndex)*height;

  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
  }

  __syncthreads();

  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
  }
}

// Diagonal reordering of the blocks; valid for square grids only.
__global__ void transposeDiagonal(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  int blockIdx_x, blockIdx_y;

  // diagonal reordering
  blockIdx_y = blockIdx.x;
  blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x;

  int xIndex = blockIdx_x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx_y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + (yIndex)*width;

  xIndex = blockIdx_y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx_x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + (yIndex)*height;

  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
  }

  __syncthreads();

  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
  }
}

static void computeTransposeGold(float *gold, const float *idata, int size_x, int size_y) {
  for (int y = 0; y < size_y; ++y)
    for (int x = 0; x < size_x; ++x) gold[(x * size_y) + y] = idata[(y * size_x) + x];
}

typedef void (*TransposeKernel)(float *, const float *, int, int);

int main(int argc, char **argv) {
  int size_x = (argc > 1) ? atoi(argv[1]) : 2048;
  int size_y = (argc > 2) ? atoi(argv[2]) : 2048;

  if (size_x <= 0 || size_y <= 0 || size_x % TILE_DIM != 0 || size_y % TILE_DIM != 0) {
    fprintf(stderr, "Matrix size must be a positive integral multiple of tile size %d\n",
            TILE_DIM);
    exit(EXIT_FAILURE);
  }

  dim3 grid(size_x / TILE_DIM, size_y / TILE_DIM);
  dim3 threads(TILE_DIM, BLOCK_ROWS);

  const size_t mem_size = sizeof(float) * size_x * size_y;
  std::vector<float> h_idata(size_x * size_y), h_odata(size_x * size_y),
      gold(size_x * size_y);
  for (int i = 0; i < size_x * size_y; ++i) h_idata[i] = (float)i;
  computeTransposeGold(gold.data(), h_idata.data(), size_x, size_y);

  float *d_idata, *d_odata;
  checkCudaErrors(cudaMalloc((void **)&d_idata, mem_size));
  checkCudaErrors(cudaMalloc((void **)&d_odata, mem_size));
  checkCudaErrors(cudaMemcpy(d_idata, h_idata.data(), mem_size, cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));

  const char *names[] = {"naive", "no bank conflicts", "diagonal"};
  int failures = 0;

  for (int k = 0; k < 3; ++k) {
    if (k == 2 && size_x != size_y) {
      printf("%-20s skipped (matrix not square)\n", names[k]);
      continue;
    }
    checkCudaErrors(cudaMemset(d_odata, 0, mem_size));
    checkCudaErrors(cudaEventRecord(start, 0));
    for (int i = 0; i < NUM_REPS; i++) {
      switch (k) {
        case 0:
          transposeNaive<<<grid, threads>>>(d_odata, d_idata, size_x, size_y);
          break;
        case 1:
          transposeNoBankConflicts<<<grid, threads>>>(d_odata, d_idata, size_x, size_y);
          break;
        case 2:
          transposeDiagonal<<<grid, threads>>>(d_odata, d_idata, size_x, size_y);
          break;
      }
    }
    checkCudaErrors(cudaEventRecord(stop, 0));
    checkCudaErrors(cudaEventSynchronize(stop));
    checkCudaErrors(cudaGetLastError());
    float kernelTime;
    checkCudaErrors(cudaEventElapsedTime(&kernelTime, start, stop));
    kernelTime /= NUM_REPS;

    checkCudaErrors(cudaMemcpy(h_odata.data(), d_odata, mem_size, cudaMemcpyDeviceToHost));
    bool ok = memcmp(h_odata.data(), gold.data(), mem_size) == 0;
    if (!ok) ++failures;
    printf("%-20s %8.4f ms  %8.2f GB/s  %s\n", names[k], kernelTime,
           2.0 * mem_size / (kernelTime * 1.0e6), ok ? "PASS" : "FAIL");
  }

  checkCudaErrors(cudaFree(d_idata));
  checkCudaErrors(cudaFree(d_odata));
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
