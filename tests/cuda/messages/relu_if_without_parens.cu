// ReLU written with a Python habit: the `if` condition has no parentheses.
#include <cuda_runtime.h>

__global__ void relu(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if i < n {
        v[i] = v[i] > 0.0f ? v[i] : 0.0f;
    }
}

int main()
{
    float *v;
    cudaMalloc(&v, 4096 * sizeof(float));
    relu<<<16, 256>>>(v, 4096);
    cudaDeviceSynchronize();
    return 0;
}
