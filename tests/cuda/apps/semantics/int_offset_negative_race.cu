// The mirror of int_far_offset: the signed operand is the negative one. `unsigned i` is the
// thread's index, `int d = -496`. In `i + d + 1` C converts `d` to `unsigned` (4294966800): the
// same bits as unsigned_far_offset's `n`, but the program means the offset -496, and the
// unsigned sum wraps to i - 495 in every execution that reads. Thread i reads the element
// thread i - 495 writes, in another block (495 > 256 threads per block).
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 4

__global__ void back_offset(float *y, float *z)
{
    int d = -496;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 1.0f;
    float v = (i >= 495) ? y[i + d + 1] : 0.0f;
    z[i] = v;
}

int main()
{
    float *y, *z;
    cudaMalloc(&y, BLOCKS * THREADS * sizeof(float));
    cudaMalloc(&z, BLOCKS * THREADS * sizeof(float));
    back_offset<<<BLOCKS, THREADS>>>(y, z);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
