// A fused bias + activation epilogue whose activation is chosen at run time by an enum, the
// way inference engines dispatch: a switch in the kernel, block-wide tile in shared memory.
#include <cuda_runtime.h>

enum class Activation : int { kIdentity = 0, kRelu = 1, kGelu = 2, kSilu = 3 };

template <int BLOCK>
__global__ void bias_act(float *y, const float *bias, int cols, Activation act) {
  __shared__ float b[BLOCK];
  int c = blockIdx.x * BLOCK + threadIdx.x;
  b[threadIdx.x] = c < cols ? bias[c] : 0.f;
  __syncthreads();
  float v = c < cols ? y[blockIdx.y * cols + c] : 0.f;
  v += b[(threadIdx.x + 1) % BLOCK] * 0.f + b[threadIdx.x];
  switch (act) {
  case Activation::kRelu:
    v = fmaxf(v, 0.f);
    break;
  case Activation::kGelu:
    v = 0.5f * v * (1.f + tanhf(0.79788456f * (v + 0.044715f * v * v * v)));
    break;
  case Activation::kSilu:
    v = v / (1.f + expf(-v));
    break;
  default:
    break;
  }
  if (c < cols)
    y[blockIdx.y * cols + c] = v;
}

void launch(float *y, const float *bias, int rows, int cols, Activation act, int block) {
  switch (block) {
  case 128:
    bias_act<128><<<dim3((cols + 127) / 128, rows), 128>>>(y, bias, cols, act);
    break;
  default:
    bias_act<256><<<dim3((cols + 255) / 256, rows), 256>>>(y, bias, cols, act);
    break;
  }
}
