#include <cooperative_groups.h>
using namespace cooperative_groups;

// The kernel's own `wait` is called, not the library's.
__device__ unsigned wait(unsigned x) {
    return x + 1;
}

__global__ void plain(int *d) {
    __shared__ int s[64];
    thread_block blk = this_thread_block();
    unsigned t = blk.thread_rank();
    s[t] = d[t];
    sync(blk);
    d[t] = s[wait(t) % blk.size()];
}
