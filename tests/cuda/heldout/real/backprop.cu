// Back-propagation training step of a 3-layer perceptron (in -> 16 -> 1).
// The two weight-heavy steps (input->hidden forward pass and the
// input->hidden weight update) run on the GPU; the rest runs on the host.
// usage: backprop <num_input_units, multiple of 16>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#include "backprop_kernel.cuh"

#define HIDDEN 16
#define OUTPUT 1

#define checkCudaErrors(x)                                                   \
  do {                                                                       \
    cudaError_t e = (x);                                                     \
    if (e != cudaSuccess) {                                                  \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__,    \
             __LINE__);                                                      \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  } while (0)

static float squash(float x) { return 1.0f / (1.0f + expf(-x)); }

struct BPNN {
  int input_n, hidden_n, output_n;
  std::vector<float> input_units, hidden_units, output_units;
  std::vector<float> hidden_delta, output_delta, target;
  std::vector<float> input_weights, hidden_weights;        // (in+1)x(hid+1), (hid+1)x(out+1)
  std::vector<float> input_prev_weights, hidden_prev_weights;

  BPNN(int n_in, int n_hidden, int n_out)
      : input_n(n_in), hidden_n(n_hidden), output_n(n_out),
        input_units(n_in + 1), hidden_units(n_hidden + 1), output_units(n_out + 1),
        hidden_delta(n_hidden + 1), output_delta(n_out + 1), target(n_out + 1),
        input_weights((n_in + 1) * (n_hidden + 1)), hidden_weights((n_hidden + 1) * (n_out + 1)),
        input_prev_weights((n_in + 1) * (n_hidden + 1), 0.0f),
        hidden_prev_weights((n_hidden + 1) * (n_out + 1), 0.0f) {
    for (auto &w : input_weights) w = (float)rand() / RAND_MAX;
    for (auto &w : hidden_weights) w = (float)rand() / RAND_MAX;
    for (int i = 1; i <= n_in; ++i) input_units[i] = (float)rand() / RAND_MAX;
    for (int i = 1; i <= n_out; ++i) target[i] = 0.1f;
  }
};

static void layerforward_host(const float *l1, float *l2, const float *conn, int n1, int n2) {
  for (int j = 1; j <= n2; j++) {
    float sum = 0.0f;
    for (int k = 0; k <= n1; k++) sum += conn[k * (n2 + 1) + j] * l1[k];
    l2[j] = squash(sum);
  }
}

static void train_kernel(BPNN &net, float *eo, float *eh) {
  const int in = net.input_n;
  const int hid = net.hidden_n;
  const int out = net.output_n;
  const int num_blocks = in / 16;

  dim3 grid(1, num_blocks);
  dim3 threads(16, 16);

  std::vector<float> partial_sum(num_blocks * WIDTH);

  float *input_cuda, *output_hidden_cuda, *input_hidden_cuda, *hidden_partial_sum;
  float *hidden_delta_cuda, *input_prev_weights_cuda;
  const size_t wbytes = (in + 1) * (hid + 1) * sizeof(float);
  checkCudaErrors(cudaMalloc((void **)&input_cuda, (in + 1) * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&output_hidden_cuda, (hid + 1) * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&input_hidden_cuda, wbytes));
  checkCudaErrors(cudaMalloc((void **)&hidden_partial_sum, num_blocks * WIDTH * sizeof(float)));

  net.input_units[0] = 1.0f;
  checkCudaErrors(cudaMemcpy(input_cuda, net.input_units.data(), (in + 1) * sizeof(float),
                             cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(input_hidden_cuda, net.input_weights.data(), wbytes,
                             cudaMemcpyHostToDevice));

  bpnn_layerforward_CUDA<<<grid, threads>>>(input_cuda, output_hidden_cuda, input_hidden_cuda,
                                            hidden_partial_sum, in, hid);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaMemcpy(partial_sum.data(), hidden_partial_sum,
                             num_blocks * WIDTH * sizeof(float), cudaMemcpyDeviceToHost));

  for (int j = 1; j <= hid; j++) {
    float sum = 0.0f;
    for (int k = 0; k < num_blocks; k++) sum += partial_sum[k * hid + j - 1];
    sum += net.input_weights[j];  // bias row
    net.hidden_units[j] = squash(sum);
  }
  net.hidden_units[0] = 1.0f;

  layerforward_host(net.hidden_units.data(), net.output_units.data(),
                    net.hidden_weights.data(), hid, out);

  // output and hidden error
  float errsum = 0.0f;
  for (int j = 1; j <= out; j++) {
    float o = net.output_units[j];
    net.output_delta[j] = o * (1.0f - o) * (net.target[j] - o);
    errsum += fabsf(net.output_delta[j]);
  }
  *eo = errsum;
  errsum = 0.0f;
  for (int j = 1; j <= hid; j++) {
    float h = net.hidden_units[j], sum = 0.0f;
    for (int k = 1; k <= out; k++) sum += net.output_delta[k] * net.hidden_weights[j * (out + 1) + k];
    net.hidden_delta[j] = h * (1.0f - h) * sum;
    errsum += fabsf(net.hidden_delta[j]);
  }
  *eh = errsum;

  // hidden -> output weights on the host
  for (int j = 1; j <= out; j++)
    for (int k = 0; k <= hid; k++) {
      int idx = k * (out + 1) + j;
      float nw = ETA * net.output_delta[j] * net.hidden_units[k] + MOMENTUM * net.hidden_prev_weights[idx];
      net.hidden_weights[idx] += nw;
      net.hidden_prev_weights[idx] = nw;
    }

  checkCudaErrors(cudaMalloc((void **)&hidden_delta_cuda, (hid + 1) * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&input_prev_weights_cuda, wbytes));
  checkCudaErrors(cudaMemcpy(hidden_delta_cuda, net.hidden_delta.data(), (hid + 1) * sizeof(float),
                             cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(input_prev_weights_cuda, net.input_prev_weights.data(), wbytes,
                             cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(input_hidden_cuda, net.input_weights.data(), wbytes,
                             cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));
  bpnn_adjust_weights_cuda<<<grid, threads>>>(hidden_delta_cuda, hid, input_cuda, in,
                                              input_hidden_cuda, input_prev_weights_cuda);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
  printf("adjust_weights: %.3f ms\n", ms);

  checkCudaErrors(cudaMemcpy(net.input_units.data(), input_cuda, (in + 1) * sizeof(float),
                             cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(net.input_weights.data(), input_hidden_cuda, wbytes,
                             cudaMemcpyDeviceToHost));

  cudaFree(input_cuda);
  cudaFree(output_hidden_cuda);
  cudaFree(input_hidden_cuda);
  cudaFree(hidden_partial_sum);
  cudaFree(input_prev_weights_cuda);
  cudaFree(hidden_delta_cuda);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: backprop <num of input elements>\n");
    exit(0);
  }
  int layer_size = atoi(argv[1]);
  if (layer_size <= 0 || layer_size % 16 != 0) {
    fprintf(stderr, "The number of input points must be divided by 16\n");
    exit(0);
  }

  srand(7);
  BPNN net(layer_size, HIDDEN, OUTPUT);
  printf("Input layer size : %d\n", layer_size);
  float out_err, hid_err;
  train_kernel(net, &out_err, &hid_err);
  printf("Training done: output error %f, hidden error %f\n", out_err, hid_err);
  return 0;
}
