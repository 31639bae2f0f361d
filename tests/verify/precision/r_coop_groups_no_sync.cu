//--blockDim=128 --gridDim=1
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void negate(int *v) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ int buf[128];
    int t = block.thread_rank();
    buf[t] = v[t];
    v[t] = -buf[127 - t];
}
