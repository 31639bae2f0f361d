// Partial sums with cooperative groups, launched with a 2-D block by a caller that wanted more
// threads per block: the loads still index the shared buffer by threadIdx.x only.
#include <cstdio>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void partial_sums(const float *in, float *out, int n)
{
    __shared__ float buf[256];
    cg::thread_block block = cg::this_thread_block();
    int gid = blockIdx.x * block.size() + block.thread_rank();
    buf[threadIdx.x] = gid < n ? in[gid] : 0.0f;
    block.sync();
    if (block.thread_rank() == 0) {
        float s = 0.0f;
        for (int i = 0; i < 256; ++i)
            s += buf[i];
        out[blockIdx.x] = s;
    }
}

int main()
{
    const int n = 1 << 20;
    float *in, *out;
    dim3 threads(256, 2);
    dim3 blocks(n / 512);
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, (n / 512) * sizeof(float));
    partial_sums<<<blocks, threads>>>(in, out, n);
    cudaDeviceSynchronize();
    return 0;
}
