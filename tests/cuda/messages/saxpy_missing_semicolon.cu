// SAXPY with a typo: the `;` at the end of the index computation is missing. The error is at
// the end of that line, where the `;` goes, not at the start of the next statement.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    int n = 1 << 20;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    cudaDeviceSynchronize();
    return 0;
}
