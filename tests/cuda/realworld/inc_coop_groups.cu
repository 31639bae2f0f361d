//--blockDim=128 --gridDim=8
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Reverses each block's chunk, synchronizing through the block group.
__global__ void reverseChunks(float *d)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[128];
    unsigned r = block.thread_rank();
    unsigned base = blockIdx.x * 128;
    s[r] = d[base + r];
    block.sync();
    d[base + r] = s[127 - r];
}
