// Cooperative-groups block reduction in the style of modern samples: a namespace alias,
// `using namespace`, a `static constexpr` local for the items per thread, a thread-local
// array sized by it, and the block's sync through the group object.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;
using namespace cooperative_groups;

__global__ void sumItems(const float *in, float *partial)
{
    static constexpr int ITEMS = 4;
    constexpr int BLOCK = 256;
    __shared__ float buf[BLOCK];
    thread_block block = this_thread_block();
    float items[ITEMS];
    int base = (blockIdx.x * BLOCK + threadIdx.x) * ITEMS;
    float acc = 0.0f;
    for (int k = 0; k < ITEMS; ++k) {
        items[k] = in[base + k];
        acc += items[k];
    }
    buf[threadIdx.x] = acc;
    block.sync();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] += buf[threadIdx.x + s];
        cg::sync(block);
    }
    if (block.thread_rank() == 0)
        partial[blockIdx.x] = buf[0];
}

int main()
{
    const int n = 1 << 20;
    float *in, *partial;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&partial, (n / 1024) * sizeof(float));
    sumItems<<<n / 1024, 256>>>(in, partial);
    cudaDeviceSynchronize();
    return 0;
}
