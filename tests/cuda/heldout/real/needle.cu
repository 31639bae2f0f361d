// Needleman-Wunsch global sequence alignment score matrix, computed tile by
// tile along anti-diagonals of BLOCK_SIZE x BLOCK_SIZE tiles.
// usage: needle <max_rows/max_cols> <penalty>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>

#include "needle_kernel.cuh"

#define CUDA_CHECK(call)                                                     \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                      \
              cudaGetErrorString(e_));                                       \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  } while (0)

static const int blosum62[24][24] = {
    {4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1, -1, -1, -2, -1, 1, 0, -3, -2, 0, -2, -1, 0, -4},
    {-1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2, 2, -1, -3, -2, -1, -1, -3, -2, -3, -1, 0, -1, -4},
    {-2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3, 0, -2, -3, -2, 1, 0, -4, -2, -3, 3, 0, -1, -4},
    {-2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4, -1, -3, -3, -1, 0, -1, -4, -3, -3, 4, 1, -1, -4},
    {0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1, -3, -3, -2, -4},
    {-1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2, 1, 0, -3, -1, 0, -1, -2, -1, -2, 0, 3, -1, -4},
    {-1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3, 1, -2, -3, -1, 0, -1, -3, -2, -2, 1, 4, -1, -4},
    {0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4, -2, -3, -3, -2, 0, -2, -2, -3, -3, -1, -2, -1, -4},
    {-2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3, -1, -2, -1, -2, -1, -2, -2, 2, -3, 0, 0, -1, -4},
    {-1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2, -3, 1, 0, -3, -2, -1, -3, -1, 3, -3, -3, -1, -4},
    {-1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4, -2, 2, 0, -3, -2, -1, -2, -1, 1, -4, -3, -1, -4},
    {-1, 2, 0, -1, -3, 1, 1, -2, -1, -3, -2, 5, -1, -3, -1, 0, -1, -3, -2, -2, 0, 1, -1, -4},
    {-1, -1, -2, -3, -1, 0, -2, -3, -2, 1, 2, -1, 5, 0, -2, -1, -1, -1, -1, 1, -3, -1, -1, -4},
    {-2, -3, -3, -3, -2, -3, -3, -3, -1, 0, 0, -3, 0, 6, -4, -2, -2, 1, 3, -1, -3, -3, -1, -4},
    {-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4, 7, -1, -1, -4, -3, -2, -2, -1, -2, -4},
    {1, -1, 1, 0, -1, 0, 0, 0, -1, -2, -2, 0, -1, -2, -1, 4, 1, -3, -2, -2, 0, 0, 0, -4},
    {0, -1, 0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1, 1, 5, -2, -2, 0, -1, -1, 0, -4},
    {-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1, 1, -4, -3, -2, 11, 2, -3, -4, -3, -2, -4},
    {-2, -2, -2, -3, -2, -1, -2, -3, 2, -1, -1, -2, -1, 3, -3, -2, -2, 2, 7, -1, -3, -2, -1, -4},
    {0, -3, -3, -3, -1, -2, -2, -3, -3, 3, 1, -2, 1, -1, -2, -2, 0, -3, -1, 4, -3, -2, -1, -4},
    {-2, -1, 3, 4, -3, 0, 1, -1, 0, -3, -4, 0, -3, -3, -2, 0, -1, -4, -3, -3, 4, 1, -1, -4},
    {-1, 0, 0, 1, -3, 3, 4, -2, 0, -3, -3, 1, -1, -3, -1, 0, -1, -3, -2, -2, 1, 4, -1, -4},
    {0, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2, 0, 0, -2, -1, -1, -1, -1, -1, -4},
    {-4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, 1}};

void usage(int argc, char **argv) {
  fprintf(stderr, "Usage: %s <max_rows/max_cols> <penalty>\n", argv[0]);
  fprintf(stderr, "\t<dimension>  - x and y dimensions (a multiple of %d)\n", BLOCK_SIZE);
  fprintf(stderr, "\t<penalty>    - penalty (positive integer)\n");
  exit(1);
}

int main(int argc, char **argv) {
  int max_rows, max_cols, penalty;
  if (argc == 3) {
    max_rows = atoi(argv[1]);
    max_cols = atoi(argv[1]);
    penalty = atoi(argv[2]);
  } else {
    usage(argc, argv);
  }

  if (max_rows <= 0 || max_rows % BLOCK_SIZE != 0) {
    fprintf(stderr, "The dimension values must be a multiple of %d\n", BLOCK_SIZE);
    exit(1);
  }

  max_rows = max_rows + 1;
  max_cols = max_cols + 1;
  int size = max_cols * max_rows;
  int *referrence = (int *)malloc(size * sizeof(int));
  int *input_itemsets = (int *)malloc(size * sizeof(int));
  int *output_itemsets = (int *)malloc(size * sizeof(int));

  srand(7);
  memset(input_itemsets, 0, size * sizeof(int));
  for (int i = 1; i < max_rows; i++) input_itemsets[i * max_cols] = rand() % 10 + 1;
  for (int j = 1; j < max_cols; j++) input_itemsets[j] = rand() % 10 + 1;

  for (int i = 1; i < max_cols; i++)
    for (int j = 1; j < max_rows; j++)
      referrence[i * max_cols + j] = blosum62[input_itemsets[i * max_cols]][input_itemsets[j]];

  for (int i = 1; i < max_rows; i++) input_itemsets[i * max_cols] = -i * penalty;
  for (int j = 1; j < max_cols; j++) input_itemsets[j] = -j * penalty;

  int *referrence_cuda, *matrix_cuda;
  CUDA_CHECK(cudaMalloc((void **)&referrence_cuda, sizeof(int) * size));
  CUDA_CHECK(cudaMalloc((void **)&matrix_cuda, sizeof(int) * size));
  CUDA_CHECK(cudaMemcpy(referrence_cuda, referrence, sizeof(int) * size, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(matrix_cuda, input_itemsets, sizeof(int) * size, cudaMemcpyHostToDevice));

  dim3 dimGrid;
  dim3 dimBlock(BLOCK_SIZE, 1);
  int block_width = (max_cols - 1) / BLOCK_SIZE;

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));

  // process top-left matrix
  for (int i = 1; i <= block_width; i++) {
    dimGrid.x = i;
    dimGrid.y = 1;
    needle_cuda_shared_1<<<dimGrid, dimBlock>>>(referrence_cuda, matrix_cuda, max_cols,
                                                penalty, i, block_width);
  }
  // process bottom-right matrix
  for (int i = block_width - 1; i >= 1; i--) {
    dimGrid.x = i;
    dimGrid.y = 1;
    needle_cuda_shared_2<<<dimGrid, dimBlock>>>(referrence_cuda, matrix_cuda, max_cols,
                                                penalty, i, block_width);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));

  CUDA_CHECK(cudaMemcpy(output_itemsets, matrix_cuda, sizeof(int) * size, cudaMemcpyDeviceToHost));

  // CPU check
  int *ref = (int *)malloc(size * sizeof(int));
  memcpy(ref, input_itemsets, size * sizeof(int));
  for (int i = 1; i < max_rows; i++)
    for (int j = 1; j < max_cols; j++)
      ref[i * max_cols + j] = maximum(ref[(i - 1) * max_cols + j - 1] + referrence[i * max_cols + j],
                                      ref[i * max_cols + j - 1] - penalty,
                                      ref[(i - 1) * max_cols + j] - penalty);
  int bad = 0;
  for (int k = 0; k < size; ++k) bad += ref[k] != output_itemsets[k];
  printf("%d x %d alignment: %.3f ms, %d mismatches, score %d\n", max_rows - 1, max_cols - 1,
         ms, bad, output_itemsets[size - 1]);

  cudaFree(referrence_cuda);
  cudaFree(matrix_cuda);
  free(referrence);
  free(input_itemsets);
  free(output_itemsets);
  free(ref);
  return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
