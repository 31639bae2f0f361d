// Thermal simulation (HotSpot): iterative 5-point stencil over a chip grid.
// Each launch advances `iteration` time steps using the "pyramid" scheme: a
// block loads a BLOCK_SIZE x BLOCK_SIZE tile, and after every step the ring of
// valid cells shrinks by one, so only the inner
// (BLOCK_SIZE - 2*iteration)^2 cells are written back.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cassert>

#define BLOCK_SIZE 16
#define STR_SIZE 256

/* maximum power density possible (say 300W for a 10mm x 10mm chip) */
#define MAX_PD (3.0e6)
/* required precision in degrees */
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
/* capacitance fitting factor */
#define FACTOR_CHIP 0.5

/* chip parameters */
const float t_chip = 0.0005f;
const float chip_height = 0.016f;
const float chip_width = 0.016f;
/* ambient temperature, assuming no package at all */
const float amb_temp = 80.0f;

#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

#define CUDA_SAFE_CALL(call)                                                   \
  do {                                                                         \
    cudaError_t err = call;                                                    \
    if (cudaSuccess != err) {                                                  \
      fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n", __FILE__,  \
              __LINE__, cudaGetErrorString(err));                              \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

__global__ void calculate_temp(int iteration,  // number of iterations
                               float *power,   // power input
                               float *temp_src,  // temperature input
                               float *temp_dst,  // temperature output
                               int grid_cols, int grid_rows, int border_cols,
                               int border_rows, float Cap, float Rx, float Ry,
                               float Rz, float step) {
  __shared__ float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE];

  float amb_temp = 80.0f;
  float step_div_Cap;
  float Rx_1, Ry_1, Rz_1;

  int bx = blockIdx.x;
  int by = blockIdx.y;

  int tx = threadIdx.x;
  int ty = threadIdx.y;

  step_div_Cap = step / Cap;

  Rx_1 = 1 / Rx;
  Ry_1 = 1 / Ry;
  Rz_1 = 1 / Rz;

  // the cells a block finally writes form a "small block"; small blocks of
  // neighbouring blocks tile the grid without overlap
  int small_block_rows = BLOCK_SIZE - iteration * 2;
  int small_block_cols = BLOCK_SIZE - iteration * 2;

  // block coordinates of the tile in the input grid, including the borders
  int blkY = small_block_rows * by - border_rows;
  int blkX = small_block_cols * bx - border_cols;
  int blkYmax = blkY + BLOCK_SIZE - 1;
  int blkXmax = blkX + BLOCK_SIZE - 1;

  // global coordinates of the current thread
  int yidx = blkY + ty;
  int xidx = blkX + tx;

  // load data if it is within the valid input range
  int loadYidx = yidx, loadXidx = xidx;
  int index = grid_cols * loadYidx + loadXidx;

  if (IN_RANGE(loadYidx, 0, grid_rows - 1) && IN_RANGE(loadXidx, 0, grid_cols - 1)) {
    temp_on_cuda[ty][tx] = temp_src[index];
    power_on_cuda[ty][tx] = power[index];
  }
  __syncthreads();

  // part of the tile that lies inside the grid
  int validYmin = (blkY < 0) ? -blkY : 0;
  int validYmax = (blkYmax > grid_rows - 1) ? BLOCK_SIZE - 1 - (blkYmax - grid_rows + 1)
                                            : BLOCK_SIZE - 1;
  int validXmin = (blkX < 0) ? -blkX : 0;
  int validXmax = (blkXmax > grid_cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - grid_cols + 1)
                                            : BLOCK_SIZE - 1;

  int N = ty - 1;
  int S = ty + 1;
  int W = tx - 1;
  int E = tx + 1;

  N = (N < validYmin) ? validYmin : N;
  S = (S > validYmax) ? validYmax : S;
  W = (W < validXmin) ? validXmin : W;
  E = (E > validXmax) ? validXmax : E;

  bool computed;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
        IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax)) {
      computed = true;
      temp_t[ty][tx] =
          temp_on_cuda[ty][tx] +
          step_div_Cap * (power_on_cuda[ty][tx] +
                          (temp_on_cuda[S][tx] + temp_on_cuda[N][tx] - 2.0f * temp_on_cuda[ty][tx]) * Ry_1 +
                          (temp_on_cuda[ty][E] + temp_on_cuda[ty][W] - 2.0f * temp_on_cuda[ty][tx]) * Rx_1 +
                          (amb_temp - temp_on_cuda[ty][tx]) * Rz_1);
    }
    __syncthreads();
    if (i == iteration - 1) break;
    if (computed)
      temp_on_cuda[ty][tx] = temp_t[ty][tx];
    __syncthreads();
  }

  // only the threads of the small block are still computing after the last step
  if (computed) {
    temp_dst[index] = temp_t[ty][tx];
  }
}

/*
   compute N time steps
*/
int compute_tran_temp(float *MatrixPower, float *MatrixTemp[2], int col, int row,
                      int total_iterations, int num_iterations, int blockCols,
                      int blockRows, int borderCols, int borderRows) {
  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid(blockCols, blockRows);

  float grid_height = chip_height / row;
  float grid_width = chip_width / col;

  float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
  float Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
  float Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
  float Rz = t_chip / (K_SI * grid_height * grid_width);

  float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
  float step = PRECISION / max_slope;
  float t;

  int src = 1, dst = 0;

  for (t = 0; t < total_iterations; t += num_iterations) {
    int temp = src;
    src = dst;
    dst = temp;
    calculate_temp<<<dimGrid, dimBlock>>>(
        MIN(num_iterations, total_iterations - t), MatrixPower, MatrixTemp[src],
        MatrixTemp[dst], col, row, borderCols, borderRows, Cap, Rx, Ry, Rz, step);
    CUDA_SAFE_CALL(cudaGetLastError());
  }
  return dst;
}

void usage(int argc, char **argv) {
  fprintf(stderr, "Usage: %s <grid_rows/grid_cols> <pyramid_height> <sim_time>\n", argv[0]);
  fprintf(stderr, "\t<grid_rows/grid_cols>  - number of rows/cols in the grid (positive integer)\n");
  fprintf(stderr, "\t<pyramid_height> - pyramid heigh(positive integer)\n");
  fprintf(stderr, "\t<sim_time>   - number of iterations\n");
  exit(1);
}

int main(int argc, char **argv) {
  int size;
  int grid_rows, grid_cols;
  float *FilesavingTemp, *FilesavingPower, *MatrixOut;

  int total_iterations = 60;
  int pyramid_height = 1;  // number of iterations

  if (argc != 4) usage(argc, argv);
  if ((grid_rows = atoi(argv[1])) <= 0 || (grid_cols = atoi(argv[1])) <= 0 ||
      (pyramid_height = atoi(argv[2])) <= 0 || (total_iterations = atoi(argv[3])) <= 0)
    usage(argc, argv);

  size = grid_rows * grid_cols;

  /* --------------- pyramid parameters --------------- */
#define EXPAND_RATE 2  // each extra step widens the tile by one cell on each side
  int borderCols = (pyramid_height)*EXPAND_RATE / 2;
  int borderRows = (pyramid_height)*EXPAND_RATE / 2;
  int smallBlockCol = BLOCK_SIZE - (pyramid_height)*EXPAND_RATE;
  int smallBlockRow = BLOCK_SIZE - (pyramid_height)*EXPAND_RATE;
  if (smallBlockCol <= 0) {
    fprintf(stderr, "pyramid height %d too large for block size %d\n", pyramid_height,
            BLOCK_SIZE);
    exit(1);
  }
  int blockCols = grid_cols / smallBlockCol + ((grid_cols % smallBlockCol == 0) ? 0 : 1);
  int blockRows = grid_rows / smallBlockRow + ((grid_rows % smallBlockRow == 0) ? 0 : 1);

  FilesavingTemp = (float *)malloc(size * sizeof(float));
  FilesavingPower = (float *)malloc(size * sizeof(float));
  MatrixOut = (float *)calloc(size, sizeof(float));

  if (!FilesavingPower || !FilesavingTemp || !MatrixOut) {
    fprintf(stderr, "unable to allocate memory");
    exit(1);
  }

  printf("pyramidHeight: %d\ngridSize: [%d, %d]\nborder:[%d, %d]\nblockGrid:[%d, %d]\ntargetBlock:[%d, %d]\n",
         pyramid_height, grid_cols, grid_rows, borderCols, borderRows, blockCols,
         blockRows, smallBlockCol, smallBlockRow);

  srand(7);
  for (int i = 0; i < size; ++i) {
    FilesavingTemp[i] = 323.0f + (rand() % 1000) / 100.0f;
    FilesavingPower[i] = (rand() % 1000) / 1.0e6f;
  }

  float *MatrixTemp[2], *MatrixPower;
  CUDA_SAFE_CALL(cudaMalloc((void **)&MatrixTemp[0], sizeof(float) * size));
  CUDA_SAFE_CALL(cudaMalloc((void **)&MatrixTemp[1], sizeof(float) * size));
  CUDA_SAFE_CALL(cudaMemcpy(MatrixTemp[0], FilesavingTemp, sizeof(float) * size,
                            cudaMemcpyHostToDevice));
  CUDA_SAFE_CALL(cudaMalloc((void **)&MatrixPower, sizeof(float) * size));
  CUDA_SAFE_CALL(cudaMemcpy(MatrixPower, FilesavingPower, sizeof(float) * size,
                            cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CUDA_SAFE_CALL(cudaEventCreate(&start));
  CUDA_SAFE_CALL(cudaEventCreate(&stop));
  CUDA_SAFE_CALL(cudaEventRecord(start));
  int ret = compute_tran_temp(MatrixPower, MatrixTemp, grid_cols, grid_rows,
                              total_iterations, pyramid_height, blockCols, blockRows,
                              borderCols, borderRows);
  CUDA_SAFE_CALL(cudaEventRecord(stop));
  CUDA_SAFE_CALL(cudaEventSynchronize(stop));
  float ms;
  CUDA_SAFE_CALL(cudaEventElapsedTime(&ms, start, stop));
  printf("Ending simulation: %.3f ms\n", ms);

  CUDA_SAFE_CALL(cudaMemcpy(MatrixOut, MatrixTemp[ret], sizeof(float) * size,
                            cudaMemcpyDeviceToHost));
  double avg = 0.0;
  for (int i = 0; i < size; ++i) avg += MatrixOut[i];
  printf("average temperature %.4f\n", avg / size);

  cudaFree(MatrixPower);
  cudaFree(MatrixTemp[0]);
  cudaFree(MatrixTemp[1]);
  free(MatrixOut);
  free(FilesavingTemp);
  free(FilesavingPower);
  return 0;
}
