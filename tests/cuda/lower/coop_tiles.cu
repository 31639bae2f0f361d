#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Tiles of the block: rank and size are exact (rank % 32, 32, rank / 32); a 32-wide tile's
// sync is a warp barrier, a 16-wide one's orders nothing; collectives are unknown per thread.
__device__ float tile_sum(cg::thread_block_tile<32> tile, float v) {
    for (int off = tile.size() / 2; off > 0; off /= 2)
        v += tile.shfl_down(v, off);
    return v;
}

__global__ void tiles(const float *in, float *out, int *count) {
    __shared__ float partial[8];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    auto half = cg::tiled_partition<16>(block);
    cg::thread_group dyn = cg::tiled_partition(block, 32);
    unsigned r = block.thread_rank();
    float v = tile_sum(warp, in[r]);
    if (warp.thread_rank() == 0)
        partial[warp.meta_group_rank()] = v;
    warp.sync();
    half.sync();
    dyn.sync();
    float total = cg::reduce(warp, partial[half.thread_rank() % 8], cg::plus<float>());
    unsigned votes = warp.ballot(total > 0.0f) + half.any(v < 0.0f) + warp.meta_group_size();
    cg::coalesced_group active = cg::coalesced_threads();
    if (active.thread_rank() == 0)
        atomicAdd(count, (int)active.size());
    active.sync();
    out[r] = total + votes + cg::exclusive_scan(half, v);
}
