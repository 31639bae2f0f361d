// unsigned_far_offset with a signed thread index: `int i`, `unsigned n = 4294966800u`
// (2^32 - 496). In `i + n + 1` C converts `i` to `unsigned` (the usual arithmetic conversions),
// so the read's index is the same unsigned sum as in unsigned_far_offset: as a number at least
// 2^32 - 495, far past the 1024 elements the threads write; it lands on a written element only
// when the unsigned sum wraps around 2^32 (then on y[i - 495]).
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 4

__global__ void far_offset(float *y, float *z)
{
    unsigned n = 4294966800u;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
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
