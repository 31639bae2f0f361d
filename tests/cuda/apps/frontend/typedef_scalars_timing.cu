// Textbook timing kernel: the element type is a typedef (`fp`), sizes are size_t, the clock is
// clock_t and sizeof picks the scale. Each block records its own elapsed clock ticks.
#include <cstdio>
#include <ctime>
#include <cuda_runtime.h>

typedef float fp;
typedef unsigned int index_t;

__global__ void scaleTimed(const fp *a, fp *b, size_t n, clock_t *ticks)
{
    __shared__ clock_t start;
    index_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        start = clock();
    __syncthreads();
    if (i < n)
        b[i] = a[i] * (fp)(sizeof(fp) * 2);
    __syncthreads();
    if (threadIdx.x == 0)
        ticks[blockIdx.x] = clock() - start;
}

int main()
{
    size_t n = 1 << 16;
    fp *a, *b;
    clock_t *ticks;
    cudaMalloc(&a, n * sizeof(fp));
    cudaMalloc(&b, n * sizeof(fp));
    cudaMalloc(&ticks, (n / 256) * sizeof(clock_t));
    scaleTimed<<<n / 256, 256>>>(a, b, n, ticks);
    cudaDeviceSynchronize();
    return 0;
}
