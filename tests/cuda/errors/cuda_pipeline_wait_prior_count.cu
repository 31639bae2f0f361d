#include <cuda/pipeline>
__global__ void k(const float *in, float *out) {
    __shared__ float s[256];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<20>(pipe);
    __syncthreads();
    out[threadIdx.x] = s[255 - threadIdx.x];
}
