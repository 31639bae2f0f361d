// A thread-scope cuda::pipeline: acquire is nothing, the copy an `async wr`, commit `commit`,
// consumer_wait `wait oldest`, consumer_release `release`; the pipeline passed to a helper by
// reference is the kernel's own.
#include <cuda/pipeline>
__device__ void stage_in(float *dst, const float *src, cuda::pipeline<cuda::thread_scope_thread> &pipe) {
    pipe.producer_acquire();
    cuda::memcpy_async(dst, src, sizeof(float), pipe);
    pipe.producer_commit();
}
__global__ void k(const float *in, float *out) {
    __shared__ float s[256];
    auto pipe = cuda::make_pipeline();
    stage_in(&s[threadIdx.x], &in[threadIdx.x], pipe);
    pipe.consumer_wait();
    __syncthreads();
    out[threadIdx.x] = s[255 - threadIdx.x];
    pipe.consumer_release();
}
