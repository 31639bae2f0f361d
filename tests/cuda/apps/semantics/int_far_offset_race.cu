// The twin of int_far_offset where the offset really lands: `int i`, `unsigned n = 495u`. In
// `i + n + 1` C converts `i` to `unsigned`; the sum i + 496 stays far below 2^31, so no
// arithmetic wraps, and thread i reads the element thread i + 496 writes — two blocks further
// on (256 threads per block), with nothing ordering the two.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 4

__global__ void near_offset(float *y, float *z)
{
    unsigned n = 495u;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 1.0f;
    float v = (i + n + 1 < BLOCKS * THREADS) ? y[i + n + 1] : 0.0f;
    z[i] = v;
}

int main()
{
    float *y, *z;
    cudaMalloc(&y, BLOCKS * THREADS * sizeof(float));
    cudaMalloc(&z, BLOCKS * THREADS * sizeof(float));
    near_offset<<<BLOCKS, THREADS>>>(y, z);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
