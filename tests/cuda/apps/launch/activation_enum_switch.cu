// Elementwise activation selected by an enum, in the style of ML inference code: the host picks
// the activation by name from the command line and launches one thread per element. The kernel's
// `default:` records an index for a value that no enumerator has.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

static Activation parse_activation(const char *name)
{
    if (strcmp(name, "tanh") == 0)
        return Activation::Tanh;
    if (strcmp(name, "sigmoid") == 0)
        return Activation::Sigmoid;
    return Activation::Relu;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    Activation act = parse_activation(argc > 2 ? argv[2] : "relu");
    float *x;
    int *bad;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&bad, sizeof(int));
    activate<<<(n + 255) / 256, 256>>>(x, bad, n, act);
    cudaDeviceSynchronize();
    return 0;
}
