// Per-thread sliding window in a local array (ML-kernel style).
#include <cstdio>
#include <cuda_runtime.h>

#define WIN 4

__global__ void window_sum(const float *x, float *y, int n)
{
    float w[WIN];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < WIN; i++)
        w[i] = x[g + i];
    float s = 0.0f;
    for (int i = 0; i < WIN; i++)
        s += w[i];
    y[g] = s;
}

int main()
{
    const int n = 1 << 20;
    float *x, *y;
    cudaMalloc(&x, (n + WIN) * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    window_sum<<<n / 256, 256>>>(x, y, n);
    cudaDeviceSynchronize();
    return 0;
}
