// Partial sums with cooperative groups (CUDA programming guide style): the kernel uses the
// block's thread_rank() for the reduction and threadIdx.x for loading, launched 1-D.
#include <cstdio>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void partial_sums(const float *in, float *out, int n)
{
    __shared__ float buf[256];
    cg::thread_block block = cg::this_thread_block();
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = gid < n ? in[gid] : 0.0f;
    block.sync();
    if (block.thread_rank() == 0) {
        float s = 0.0f;
        for (int i = 0; i < 256; ++i)
            s += buf[i];
        out[blockIdx.x] = s;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    float *in, *out;
    int blocks = (n + 255) / 256;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, blocks * sizeof(float));
    partial_sums<<<blocks, 256>>>(in, out, n);
    cudaDeviceSynchronize();
    return 0;
}
