//--blockDim=32 --gridDim=4
#include <cstdio>
#include <cassert>

// Debug-instrumented copy: asserts the geometry and prints from one thread per block.
__global__ void checkedCopy(const int *src, int *dst, int n)
{
    assert(blockDim.x == 32);
    int i = blockIdx.x * 32 + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
    if (threadIdx.x == 0)
        printf("block %d of %d copied\n", blockIdx.x, gridDim.x);
}
