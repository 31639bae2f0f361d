#ifndef NEEDLE_KERNEL_CUH
#define NEEDLE_KERNEL_CUH

#define BLOCK_SIZE 16

__device__ __host__ inline int maximum(int a, int b, int c) {
  int k = (a <= b) ? b : a;
  return (k <= c) ? c : k;
}

// Processes the tiles of one anti-diagonal of the upper-left triangle of tiles.
// Launch: <<<i, BLOCK_SIZE>>> for diagonal i = 1..block_width.
__global__ void needle_cuda_shared_1(const int *reference, int *matrix_cuda, int cols,
                                     int penalty, int i, int block_width) {
  int bx = blockIdx.x;
  int tx = threadIdx.x;

  int b_index_x = bx;
  int b_index_y = i - 1 - bx;

  int base = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;
  int index = base + tx + (cols + 1);
  int index_n = base + tx + 1;
  int index_w = base + cols;
  int index_nw = base;

  __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
  __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];

  if (tx == 0) temp[0][0] = matrix_cuda[index_nw];

  for (int ty = 0; ty < BLOCK_SIZE; ty++) ref[ty][tx] = reference[index + cols * ty];

  __syncthreads();

  temp[tx + 1][0] = matrix_cuda[index_w + cols * tx];

  __syncthreads();

  temp[0][tx + 1] = matrix_cuda[index_n];

  __syncthreads();

  // wavefront over the upper-left half of the tile
  for (int m = 0; m < BLOCK_SIZE; m++) {
    if (tx <= m) {
      int t_index_x = tx + 1;
      int t_index_y = m - tx + 1;
      temp[t_index_y][t_index_x] =
          maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                  temp[t_index_y][t_index_x - 1] - penalty,
                  temp[t_index_y - 1][t_index_x] - penalty);
    }
    __syncthreads();
  }

  // and over the lower-right half
  for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
    if (tx <= m) {
      int t_index_x = tx + BLOCK_SIZE - m;
      int t_index_y = BLOCK_SIZE - tx;
      temp[t_index_y][t_index_x] =
          maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                  temp[t_index_y][t_index_x - 1] - penalty,
                  temp[t_index_y - 1][t_index_x] - penalty);
    }
    __syncthreads();
  }

  for (int ty = 0; ty < BLOCK_SIZE; ty++) matrix_cuda[index + ty * cols] = temp[ty + 1][tx + 1];
}

// Same for the lower-right triangle of tiles.
// Launch: <<<i, BLOCK_SIZE>>> for i = block_width-1 .. 1.
__global__ void needle_cuda_shared_2(const int *reference, int *matrix_cuda, int cols,
                                     int penalty, int i, int block_width) {
  int bx = blockIdx.x;
  int tx = threadIdx.x;

  int b_index_x = bx + block_width - i;
  int b_index_y = block_width - bx - 1;

  int base = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;
  int index = base + tx + (cols + 1);
  int index_n = base + tx + 1;
  int index_w = base + cols;
  int index_nw = base;

  __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
  __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];

  for (int ty = 0; ty < BLOCK_SIZE; ty++) ref[ty][tx] = reference[index + cols * ty];

  __syncthreads();

  if (tx == 0) temp[0][0] = matrix_cuda[index_nw];

  temp[tx + 1][0] = matrix_cuda[index_w + cols * tx];

  __syncthreads();

  temp[0][tx + 1] = matrix_cuda[index_n];

  __syncthreads();

  for (int m = 0; m < BLOCK_SIZE; m++) {
    if (tx <= m) {
      int t_index_x = tx + 1;
      int t_index_y = m - tx + 1;
      temp[t_index_y][t_index_x] =
          maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                  temp[t_index_y][t_index_x - 1] - penalty,
                  temp[t_index_y - 1][t_index_x] - penalty);
    }
    __syncthreads();
  }

  for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
    if (tx <= m) {
      int t_index_x = tx + BLOCK_SIZE - m;
      int t_index_y = BLOCK_SIZE - tx;
      temp[t_index_y][t_index_x] =
          maximum(temp[t_index_y - 1][t_index_x - 1] + ref[t_index_y - 1][t_index_x - 1],
                  temp[t_index_y][t_index_x - 1] - penalty,
                  temp[t_index_y - 1][t_index_x] - penalty);
    }
    __syncthreads();
  }

  for (int ty = 0; ty < BLOCK_SIZE; ty++) matrix_cuda[index + ty * cols] = temp[ty + 1][tx + 1];
}

#endif
