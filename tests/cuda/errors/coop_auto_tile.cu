#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void k(float *d) {
    thread_block cta = this_thread_block();
    auto warp = tiled_partition(cta, 32);
    warp.sync();
}
