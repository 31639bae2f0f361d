// Per-warp partial sums with cooperative groups: each 32-thread tile reduces its slice of shared
// memory on its own, and the tile's barrier is `tile.sync()`, which `fix` writes where a
// warp barrier is enough.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define BLOCK 256

__global__ void warpSums(const float *in, float *warpTotals)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ float buf[BLOCK];
    unsigned int t = block.thread_rank();
    unsigned int lane = tile.thread_rank();

    buf[t] = in[blockIdx.x * BLOCK + t];
    for (unsigned int stride = 16; stride > 0; stride /= 2) {
        tile.sync();
        if (lane < stride)
            buf[t] += buf[t + stride];
    }
    if (lane == 0)
        warpTotals[(blockIdx.x * BLOCK + t) / 32] = buf[t];
}

int main()
{
    const int blocks = 2048;
    float *d_in, *d_out;
    cudaMalloc(&d_in, blocks * BLOCK * sizeof(float));
    cudaMalloc(&d_out, blocks * (BLOCK / 32) * sizeof(float));
    warpSums<<<blocks, BLOCK>>>(d_in, d_out);
    cudaDeviceSynchronize();
    return 0;
}
