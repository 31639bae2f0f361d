// A size sweep in the style of a benchmark driver: the row length starts where the user says
// and is halved after each run while it is still at least one block wide. Each block of 256
// threads scales its own row of `rows`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void scale_row(float *rows, const float *gain, int n)
{
    rows[blockIdx.x * n + threadIdx.x] *= gain[threadIdx.x];
}

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 1024;
    int n = argc > 2 ? atoi(argv[2]) : 4096;
    float *rows, *gain;
    cudaMalloc(&rows, (size_t)count * n * sizeof(float));
    cudaMalloc(&gain, THREADS * sizeof(float));
    while (n >= THREADS) {
        scale_row<<<count, THREADS>>>(rows, gain, n);
        cudaDeviceSynchronize();
        printf("row length %d done\n", n);
        n /= 2;
    }
    return 0;
}
