// cuda::pipeline_consumer_wait_prior<N>(pipe) is `wait N` (N read from the call's type, which
// the stand-in header makes `__autosync_wait_prior<N>`).
#include <cuda/pipeline>
constexpr int kS = 2;
__global__ void k(const float *in, float *out) {
    __shared__ float s[256];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<kS - 1>(pipe);
    __syncthreads();
    out[threadIdx.x] = s[255 - threadIdx.x];
}
