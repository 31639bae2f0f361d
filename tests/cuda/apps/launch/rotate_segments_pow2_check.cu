// Cyclic rotation of each block's segment through shared memory (a step of an FFT-style
// pipeline). The rotation wraps with a mask, so the segment length must be a power of two: the
// host checks its size argument with an assert and a helper before it launches.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void rotate_segments(float *data, int seg, int shift)
{
    __shared__ float s[1024];
    int t = threadIdx.x;
    s[(t + shift) & (seg - 1)] = data[blockIdx.x * seg + t];
    __syncthreads();
    data[blockIdx.x * seg + t] = s[t];
}

static bool is_pow2(int v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

int main(int argc, char **argv)
{
    int segments = argc > 1 ? atoi(argv[1]) : 4096;
    int seg = argc > 2 ? atoi(argv[2]) : 256;
    int shift = argc > 3 ? atoi(argv[3]) : 3;
    assert(seg >= 32 && seg <= 1024);
    if (!is_pow2(seg)) {
        fprintf(stderr, "segment length %d is not a power of two\n", seg);
        return 1;
    }
    float *data;
    cudaMalloc(&data, (size_t)segments * seg * sizeof(float));
    dim3 block(seg);
    rotate_segments<<<segments, block>>>(data, seg, shift);
    cudaDeviceSynchronize();
    return 0;
}
