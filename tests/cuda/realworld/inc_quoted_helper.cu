//--blockDim=256 --gridDim=64
#include "helper_cuda.h"
#include "helper_functions.h"

// Element-wise ReLU in place.
__global__ void relu(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
