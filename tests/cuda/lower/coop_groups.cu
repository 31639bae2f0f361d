#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A block group passed by reference and by value: both are the block.
__device__ void stage(float *buf, cg::thread_block &grp, const cg::thread_block other) {
    buf[grp.thread_rank()] = 1.0f;
    grp.sync();
    buf[other.size() - 1 - other.thread_rank()] += 2.0f;
}

__global__ void idioms(unsigned *out, float *g) {
    __shared__ float tile[128];
    cg::thread_block cta = cg::this_thread_block();
    cooperative_groups::thread_block full = cooperative_groups::this_thread_block();
    auto a = cg::this_thread_block();
    const cg::thread_block &r = cta;
    const auto &ra = a;
    unsigned rank = cta.thread_rank();
    tile[rank] = g[rank];
    cg::sync(cta);
    out[rank] = tile[(rank + 1) % full.size()] + r.num_threads();
    cta.sync();
    out[ra.thread_index().x] = a.thread_index().y + a.thread_index().z;
    cg::this_thread_block().sync();
    out[rank] = full.group_index().x + full.group_dim().y + r.dim_threads().z;
    cg::sync(cg::this_thread_block());
    stage(tile, cta, a);
    // Unqualified: found by argument-dependent lookup.
    sync(full);
    if (rank < 32)
        r.sync();
}
