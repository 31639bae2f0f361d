#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// A user operation of cg::reduce could touch memory: only the library's function objects.
__global__ void k(float *d) {
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
    float s = cg::reduce(w, d[b.thread_rank()], [](float x, float y) { return x + y; });
    d[b.thread_rank()] = s;
}
