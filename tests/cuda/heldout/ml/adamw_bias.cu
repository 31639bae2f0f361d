// AdamW parameter update and the bias gradient of a linear layer, in the
// style of a plain C training codebase.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define cudaCheck(err) (cuda_check((err), __FILE__, __LINE__))
static void cuda_check(cudaError_t error, const char* file, int line) {
  if (error != cudaSuccess) {
    printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
    exit(EXIT_FAILURE);
  }
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

__device__ inline float lerp(float start, float end, float weight) {
  return fmaf(weight, end, fmaf(-weight, start, start));
}

__global__ void adamw_kernel(float* __restrict__ params, const float* __restrict__ grads,
                             float* __restrict__ m, float* __restrict__ v, long num_parameters,
                             float learning_rate, float beta1, float beta2,
                             float beta1_correction, float beta2_correction, float eps,
                             float weight_decay) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < num_parameters;
       i += (long)gridDim.x * blockDim.x) {
    const float grad = grads[i];
    const float mi = lerp(grad, m[i], beta1);
    const float vi = lerp(grad * grad, v[i], beta2);
    m[i] = mi;
    v[i] = vi;
    const float m_hat = mi / beta1_correction;
    const float v_hat = vi / beta2_correction;
    params[i] -= learning_rate * (m_hat / (sqrtf(v_hat) + eps) + weight_decay * params[i]);
  }
}

constexpr int BIAS_COLS = 32;
constexpr int BIAS_ROWS = 8;

// dbias[oc] += sum_n dout[n, oc]; block = (BIAS_COLS, BIAS_ROWS).
__global__ void matmul_backward_bias_kernel(float* __restrict__ dbias,
                                            const float* __restrict__ dout, int N, int OC) {
  __shared__ float partial[BIAS_ROWS][BIAS_COLS + 1];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int col = blockIdx.x * BIAS_COLS + tx;

  float sum = 0.0f;
  if (col < OC) {
    for (int r = blockIdx.y * BIAS_ROWS + ty; r < N; r += gridDim.y * BIAS_ROWS) {
      sum += dout[(size_t)r * OC + col];
    }
  }
  partial[ty][tx] = sum;
  __syncthreads();

  if (ty == 0 && col < OC) {
    float total = 0.0f;
#pragma unroll
    for (int j = 0; j < BIAS_ROWS; j++) total += partial[j][tx];
    dbias[col] += total;
  }
}

// ----------------------------------------------------------------------------

void adamw_update(float* params, const float* grads, float* m, float* v, long num_parameters,
                  float lr, float beta1, float beta2, float eps, float weight_decay, int t) {
  const int block_size = 512;
  const int num_blocks = (int)((num_parameters + block_size - 1) / block_size);
  const float beta1_correction = 1.0f - powf(beta1, (float)t);
  const float beta2_correction = 1.0f - powf(beta2, (float)t);
  adamw_kernel<<<num_blocks, block_size>>>(params, grads, m, v, num_parameters, lr, beta1, beta2,
                                           beta1_correction, beta2_correction, eps, weight_decay);
  cudaCheck(cudaGetLastError());
}

void matmul_backward_bias(float* dbias, const float* dout, int B, int T, int OC) {
  dim3 block(BIAS_COLS, BIAS_ROWS);
  // B*T is long and OC comparatively short: give the rows more blocks
  dim3 grid(ceil_div(OC, BIAS_COLS), 4);
  matmul_backward_bias_kernel<<<grid, block>>>(dbias, dout, B * T, OC);
  cudaCheck(cudaGetLastError());
}

int main() {
  const int B = 4, T = 256, OC = 3072;
  const long num_parameters = 768L * OC + OC;
  float *params, *grads, *m, *v, *dout, *dbias;
  cudaCheck(cudaMalloc(&params, num_parameters * sizeof(float)));
  cudaCheck(cudaMalloc(&grads, num_parameters * sizeof(float)));
  cudaCheck(cudaMalloc(&m, num_parameters * sizeof(float)));
  cudaCheck(cudaMalloc(&v, num_parameters * sizeof(float)));
  cudaCheck(cudaMalloc(&dout, (size_t)B * T * OC * sizeof(float)));
  cudaCheck(cudaMemset(params, 0, num_parameters * sizeof(float)));
  cudaCheck(cudaMemset(grads, 0, num_parameters * sizeof(float)));
  cudaCheck(cudaMemset(m, 0, num_parameters * sizeof(float)));
  cudaCheck(cudaMemset(v, 0, num_parameters * sizeof(float)));
  cudaCheck(cudaMemset(dout, 0, (size_t)B * T * OC * sizeof(float)));

  // the bias gradient lives at the end of the gradient buffer
  dbias = grads + 768L * OC;
  matmul_backward_bias(dbias, dout, B, T, OC);
  adamw_update(params, grads, m, v, num_parameters, 3e-4f, 0.9f, 0.95f, 1e-8f, 0.1f, 1);
  cudaCheck(cudaDeviceSynchronize());
  printf("ok\n");

  cudaCheck(cudaFree(params));
  cudaCheck(cudaFree(grads));
  cudaCheck(cudaFree(m));
  cudaCheck(cudaFree(v));
  cudaCheck(cudaFree(dout));
  return 0;
}
