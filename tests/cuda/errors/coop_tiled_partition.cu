#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *d) {
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
    d[cta.thread_rank()] = 0.0f;
}
