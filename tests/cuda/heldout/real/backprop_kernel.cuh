#ifndef BACKPROP_KERNEL_CUH
#define BACKPROP_KERNEL_CUH

#define WIDTH 16   // shared memory tile width
#define HEIGHT 16  // shared memory tile height
#define LOG2_HEIGHT 4

#define ETA 0.3f       // learning rate
#define MOMENTUM 0.3f  // momentum

// Forward pass input -> hidden layer. Weights are stored (in+1) x (hid+1), row
// 0 and column 0 being the bias entries. Block (1, by) handles input units
// 16*by+1 .. 16*by+16 and hidden units 1..16 (hid == WIDTH).
__global__ void bpnn_layerforward_CUDA(const float *input_cuda, float *output_hidden_cuda,
                                       float *input_hidden_cuda, float *hidden_partial_sum,
                                       int in, int hid) {
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_in = HEIGHT * by + ty + 1;

  __shared__ float input_node[HEIGHT];
  __shared__ float weight_matrix[HEIGHT][WIDTH];

  if (tx == 0) input_node[ty] = input_cuda[index_in];

  __syncthreads();

  weight_matrix[ty][tx] = input_hidden_cuda[index];

  __syncthreads();

  weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];

  __syncthreads();

  // column-wise tree sum over the 16 input units of the tile
  for (int i = 1; i <= LOG2_HEIGHT; i++) {
    int power_two = 1 << i;
    if (ty % power_two == 0)
      weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
    __syncthreads();
  }

  input_hidden_cuda[index] = weight_matrix[ty][tx];

  __syncthreads();

  if (tx == 0) {
    hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
  }
}

__global__ void bpnn_adjust_weights_cuda(const float *delta, int hid, const float *ly, int in,
                                         float *w, float *oldw) {
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_y = HEIGHT * by + ty + 1;
  int index_x = tx + 1;

  w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
  oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));

  __syncthreads();

  // bias row (row 0) is updated by the first block only
  if (ty == 0 && by == 0) {
    w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
    oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
  }
}

#endif
