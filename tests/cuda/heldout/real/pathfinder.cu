// PathFinder: dynamic programming over a rows x cols grid of weights; each
// cell of a row takes the minimum of its three upper neighbours plus its own
// weight. Each launch processes `pyramid_height` rows; blocks overlap by a
// halo that shrinks by one column per row processed.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cassert>

#define BLOCK_SIZE 256
#define HALO 1  // cells lost on each side per row processed

#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define CLAMP_RANGE(x, min, max) x = (x < (min)) ? min : ((x > (max)) ? max : x)
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

#define M_SEED 9

void checkCUDAError(const char *msg) {
  cudaError_t err = cudaGetLastError();
  if (cudaSuccess != err) {
    fprintf(stderr, "Cuda error: %s: %s.\n", msg, cudaGetErrorString(err));
    exit(EXIT_FAILURE);
  }
}

int rows, cols;
int *data;
int **wall;
int *result;
int pyramid_height;

void init(int argc, char **argv) {
  if (argc == 4) {
    cols = atoi(argv[1]);
    rows = atoi(argv[2]);
    pyramid_height = atoi(argv[3]);
  } else {
    printf("Usage: dynproc row_len col_len pyramid_height\n");
    exit(0);
  }
  if (cols <= 0 || rows <= 1 || pyramid_height <= 0) {
    fprintf(stderr, "invalid arguments\n");
    exit(EXIT_FAILURE);
  }
  if (BLOCK_SIZE - pyramid_height * HALO * 2 <= 0) {
    fprintf(stderr, "pyramid height too large\n");
    exit(EXIT_FAILURE);
  }
  data = new int[rows * cols];
  wall = new int *[rows];
  for (int n = 0; n < rows; n++) wall[n] = data + cols * n;
  result = new int[cols];

  srand(M_SEED);
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < cols; j++) {
      wall[i][j] = rand() % 10;
    }
  }
}

__global__ void dynproc_kernel(int iteration, int *gpuWall, int *gpuSrc, int *gpuResults,
                               int cols, int rows, int startStep, int border) {
  __shared__ int prev[BLOCK_SIZE];
  __shared__ int result[BLOCK_SIZE];

  int bx = blockIdx.x;
  int tx = threadIdx.x;

  // the cells a block finally writes form a "small block"; small blocks of
  // neighbouring blocks tile the grid without overlap

  int small_block_cols = BLOCK_SIZE - iteration * HALO * 2;

  // tile window, shifted left by the border
  int blkX = small_block_cols * bx - border;
  int blkXmax = blkX + BLOCK_SIZE - 1;

  int xidx = blkX + tx;

  // part of the tile that lies inside the grid
  int validXmin = (blkX < 0) ? -blkX : 0;
  int validXmax = (blkXmax > cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - cols + 1) : BLOCK_SIZE - 1;

  int W = tx - 1;
  int E = tx + 1;

  W = (W < validXmin) ? validXmin : W;
  E = (E > validXmax) ? validXmax : E;

  bool isValid = IN_RANGE(tx, validXmin, validXmax);

  if (IN_RANGE(xidx, 0, cols - 1)) {
    prev[tx] = gpuSrc[xidx];
  }
  __syncthreads();
  bool computed;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && isValid) {
      computed = true;
      int left = prev[W];
      int up = prev[tx];
      int right = prev[E];
      int shortest = MIN(left, up);
      shortest = MIN(shortest, right);
      int index = cols * (startStep + i) + xidx;
      result[tx] = shortest + gpuWall[index];
    }
    __syncthreads();
    if (i == iteration - 1) break;
    if (computed)
      prev[tx] = result[tx];
    __syncthreads();
  }

  // only the threads of the small block are still computing after the last step
  if (computed) {
    gpuResults[xidx] = result[tx];
  }
}

/*
   compute N time steps
*/
int calc_path(int *gpuWall, int *gpuResult[2], int rows, int cols, int pyramid_height,
              int blockCols, int borderCols) {
  dim3 dimBlock(BLOCK_SIZE);
  dim3 dimGrid(blockCols);

  int src = 1, dst = 0;
  for (int t = 0; t < rows - 1; t += pyramid_height) {
    int temp = src;
    src = dst;
    dst = temp;
    dynproc_kernel<<<dimGrid, dimBlock>>>(MIN(pyramid_height, rows - t - 1), gpuWall,
                                          gpuResult[src], gpuResult[dst], cols, rows, t,
                                          borderCols);
    checkCUDAError("dynproc_kernel");
  }
  return dst;
}

int main(int argc, char **argv) {
  init(argc, argv);

  /* --------------- pyramid parameters --------------- */
  int borderCols = (pyramid_height)*HALO;
  int smallBlockCol = BLOCK_SIZE - (pyramid_height)*HALO * 2;
  int blockCols = cols / smallBlockCol + ((cols % smallBlockCol == 0) ? 0 : 1);

  printf("pyramidHeight: %d\ngridSize: [%d]\nborder:[%d]\nblockSize: %d\nblockGrid:[%d]\ntargetBlock:[%d]\n",
         pyramid_height, cols, borderCols, BLOCK_SIZE, blockCols, smallBlockCol);

  int *gpuWall, *gpuResult[2];
  int size = rows * cols;

  cudaMalloc((void **)&gpuResult[0], sizeof(int) * cols);
  cudaMalloc((void **)&gpuResult[1], sizeof(int) * cols);
  cudaMemcpy(gpuResult[0], data, sizeof(int) * cols, cudaMemcpyHostToDevice);
  cudaMalloc((void **)&gpuWall, sizeof(int) * (size - cols));
  cudaMemcpy(gpuWall, data + cols, sizeof(int) * (size - cols), cudaMemcpyHostToDevice);
  checkCUDAError("setup");

  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  int final_ret = calc_path(gpuWall, gpuResult, rows, cols, pyramid_height, blockCols,
                            borderCols);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);

  cudaMemcpy(result, gpuResult[final_ret], sizeof(int) * cols, cudaMemcpyDeviceToHost);
  checkCUDAError("copy back");

  // CPU reference
  int *ref = new int[cols], *tmp = new int[cols];
  for (int j = 0; j < cols; ++j) ref[j] = wall[0][j];
  for (int i = 1; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      int m = ref[j];
      if (j > 0) m = MIN(m, ref[j - 1]);
      if (j < cols - 1) m = MIN(m, ref[j + 1]);
      tmp[j] = m + wall[i][j];
    }
    for (int j = 0; j < cols; ++j) ref[j] = tmp[j];
  }
  int bad = 0;
  for (int j = 0; j < cols; ++j) bad += (ref[j] != result[j]);
  printf("time %.3f ms, %d mismatches\n", ms, bad);

  cudaFree(gpuWall);
  cudaFree(gpuResult[0]);
  cudaFree(gpuResult[1]);
  delete[] data;
  delete[] wall;
  delete[] result;
  delete[] ref;
  delete[] tmp;
  return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
