// A bias + activation kernel from an ML training library whose activation lives in another
// translation unit (compiled with -rdc): only its declaration is visible here. The kernel stages
// the bias vector in shared memory once per block and then applies act(x + bias) per element.
#include <cuda_runtime.h>
#include <cstdio>

#define FEATURES 256

// Defined in activations.cu; pure (no pointer arguments).
extern __device__ float act(float x);

__global__ void biasActivation(const float *x, const float *bias, float *y, int rows)
{
    __shared__ float b[FEATURES];
    int f = threadIdx.x;
    b[f] = bias[f];
    __syncthreads();
    for (int r = blockIdx.x; r < rows; r += gridDim.x)
        y[r * FEATURES + f] = act(x[r * FEATURES + f] + b[f]);
}

int main()
{
    const int rows = 8192;
    float *x, *bias, *y;
    cudaMalloc(&x, rows * FEATURES * sizeof(float));
    cudaMalloc(&bias, FEATURES * sizeof(float));
    cudaMalloc(&y, rows * FEATURES * sizeof(float));
    dim3 block(FEATURES);
    dim3 grid(128);
    biasActivation<<<grid, block>>>(x, bias, y, rows);
    cudaDeviceSynchronize();
    printf("ok\n");
    return 0;
}
