// The same partial sums with the block size read at run time (a tuning knob): whatever its
// value, the launch is 1-D, so threadIdx.x alone identifies a thread of the block.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void partial_sums(const float *in, float *out, int n)
{
    extern __shared__ float buf[];
    cg::thread_block block = cg::this_thread_block();
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = gid < n ? in[gid] : 0.0f;
    block.sync();
    if (block.thread_rank() == 0) {
        float s = 0.0f;
        for (int i = 0; i < blockDim.x; ++i)
            s += buf[i];
        out[blockIdx.x] = s;
    }
}

int main(int argc, char **argv)
{
    int n = 1 << 20;
    int threads = argc > 1 ? atoi(argv[1]) : 128;
    int blocks = (n + threads - 1) / threads;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, blocks * sizeof(float));
    partial_sums<<<blocks, threads, threads * sizeof(float)>>>(in, out, n);
    cudaDeviceSynchronize();
    return 0;
}
