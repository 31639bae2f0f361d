#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *d) {
    auto part = cg::labeled_partition(cg::coalesced_threads(), d[threadIdx.x]);
    part.sync();
}
