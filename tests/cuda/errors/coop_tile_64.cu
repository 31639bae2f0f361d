#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Tiles wider than a warp are not modelled (their sync is not a warp barrier).
__global__ void k(float *d) {
    auto big = cg::tiled_partition<64>(cg::this_thread_block());
    d[big.thread_rank()] = 0.0f;
}
