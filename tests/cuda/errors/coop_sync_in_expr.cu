#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int f(int x) { return x; }
__global__ void k(int *d) {
    cg::thread_block cta = cg::this_thread_block();
    d[0] = f(cta.sync());
}
