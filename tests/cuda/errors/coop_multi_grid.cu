#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *d) {
    d[threadIdx.x] = 1.0f;
    cg::this_multi_grid().sync();
}
