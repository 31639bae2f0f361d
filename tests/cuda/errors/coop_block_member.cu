#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(unsigned *d) {
    cg::thread_block cta = cg::this_thread_block();
    d[cta.thread_rank()] = cta.thread_rank() + cta.meta_group_size();
}
