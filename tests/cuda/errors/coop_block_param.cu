#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void step(int *d, cg::thread_block_tile<32> t) {
    t.sync();
}
__global__ void k(int *d) {
    step(d, cg::tiled_partition<32>(cg::this_thread_block()));
}
