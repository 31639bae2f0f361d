// A grid-stride fill whose `for` header lost a `;`.
#include <cuda_runtime.h>

__global__ void fill(float *v, float value, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n i += blockDim.x * gridDim.x)
        v[i] = value;
}

int main()
{
    float *v;
    cudaMalloc(&v, 1 << 20);
    fill<<<64, 256>>>(v, 1.0f, 1 << 18);
    cudaDeviceSynchronize();
    return 0;
}
