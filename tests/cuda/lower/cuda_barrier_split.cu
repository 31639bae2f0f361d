#include <cuda/barrier>
#include <utility>
__global__ void k(float *out) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float s[256];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    s[threadIdx.x] = 1.0f;
    auto token = bar.arrive();
    bar.wait(std::move(token));
    out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
}
