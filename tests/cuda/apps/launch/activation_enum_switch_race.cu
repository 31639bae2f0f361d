// Elementwise activation selected by an enum, in the style of ML inference code: the host takes
// the activation's number from the command line and casts it to the enum unchecked, so a value no
// enumerator has reaches the kernel's `default:`, where every thread writes bad_index[0].
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

enum class Activation { Relu, Tanh, Sigmoid };

__global__ void activate(float *x, int *bad_index, int n, Activation act)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    switch (act) {
    case Activation::Relu:
        x[i] = fmaxf(x[i], 0.0f);
        break;
    case Activation::Tanh:
        x[i] = tanhf(x[i]);
        break;
    case Activation::Sigmoid:
        x[i] = 1.0f / (1.0f + expf(-x[i]));
        break;
    default:
        bad_index[0] = i;
        break;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    Activation act = static_cast<Activation>(argc > 2 ? atoi(argv[2]) : 0);
    float *x;
    int *bad;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&bad, sizeof(int));
    activate<<<(n + 255) / 256, 256>>>(x, bad, n, act);
    cudaDeviceSynchronize();
    return 0;
}
