//--blockDim=256 --gridDim=64
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A block reduction written with cooperative groups, its `cg::sync(cta)` calls removed.
__global__ void block_sum(const float *in, float *out, unsigned n) {
    cg::thread_block cta = cg::this_thread_block();
    __shared__ float part[256];
    unsigned me = cta.thread_rank();
    unsigned i = cta.group_index().x * cta.size() + me;
    part[me] = (i < n) ? in[i] : 0.0f;
    for (unsigned half = cta.size() / 2; half > 0; half >>= 1) {
        cta.sync();
        if (me < half) {
            part[me] += part[me + half];
        }
    }
    if (me == 0) {
        out[cta.group_index().x] = part[0];
    }
}
