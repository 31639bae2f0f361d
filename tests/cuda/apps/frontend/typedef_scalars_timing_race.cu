// Textbook timing kernel: the element type is a typedef (`fp`), sizes are size_t, the clock is
// clock_t and sizeof picks the scale. Bug: every thread stores the block's elapsed ticks,
// not only thread 0 (the first barrier is also gone, which the second one makes harmless).
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
    if (i < n)
        b[i] = a[i] * (fp)(sizeof(fp) * 2);
    __syncthreads();
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
