// Faial's drf-loop3 idea in a whole program: every thread stores its element of `y`, then reads
// `y[i + n + 1]` with `unsigned n = 4294966800u` (2^32 - 496). The sum is C's unsigned
// arithmetic: as a number the read's index is at least 2^32 - 495, far past the 1024 elements
// the threads write; it only lands on a written element when the unsigned sum wraps around
// 2^32 (then on y[i - 495]).
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 4

__global__ void far_offset(float *y, float *z)
{
    unsigned n = 4294966800u;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 1.0f;
    float v = y[i + n + 1];
    z[i] = v;
}

int main()
{
    float *y, *z;
    // Big enough for the far index as a number (2^32 + 1024 floats, 16 GiB).
    cudaMalloc(&y, (((size_t)1 << 32) + 1024) * sizeof(float));
    cudaMalloc(&z, BLOCKS * THREADS * sizeof(float));
    far_offset<<<BLOCKS, THREADS>>>(y, z);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
