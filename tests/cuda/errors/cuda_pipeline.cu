#include <cuda/pipeline>
__global__ void k(const float *in, float *out) {
    __shared__ float s[256];
    auto pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    out[threadIdx.x] = s[threadIdx.x];
    pipe.consumer_release();
}
