#include <cuda/barrier>
#include <utility>
// A token handed to another variable: the wait's instance is not followed.
__global__ void k(float *out) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float s[256];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    s[threadIdx.x] = 1.0f;
    auto token = bar.arrive();
    auto kept = std::move(token);
    bar.wait(std::move(kept));
    out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
}
