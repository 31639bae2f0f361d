// A grid-stride loop whose stride forgot gridDim.x: thread g of block b visits g, g + blockDim.x,
// ..., which are the starting elements of the next blocks' threads.
#include <cuda_runtime.h>

__global__ void relu_inplace(float *x, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) {
        if (x[i] < 0.0f)
            x[i] = 0.0f;
    }
}

int main()
{
    int n = 1 << 20;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    relu_inplace<<<64, 256>>>(x, n);
    cudaDeviceSynchronize();
    return 0;
}
