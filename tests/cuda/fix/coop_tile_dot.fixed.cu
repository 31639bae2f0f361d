//--blockDim=256 --gridDim=64
// Dot product with cooperative groups: a grid-stride partial sum, cg::reduce over each warp
// tile, tile results through shared memory, the first tile reduces them. The block sync
// between writing and reading the tile results is missing.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void dot(const float *a, const float *b, float *out, int n) {
    __shared__ float partial[8];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float s = 0.0f;
    for (int i = blockIdx.x * 256 + block.thread_rank(); i < n; i += gridDim.x * 256)
        s += a[i] * b[i];
    s = cg::reduce(warp, s, cg::plus<float>());
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = s;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        s = warp.thread_rank() < 8 ? partial[warp.thread_rank()] : 0.0f;
        s = cg::reduce(warp, s, cg::plus<float>());
        if (warp.thread_rank() == 0)
            atomicAdd(out, s);
    }
}
