// The barrier id depends on the thread: which instances a thread joins is not a constant.
__global__ void k(float *out) {
    __shared__ float s[256];
    s[threadIdx.x] = 1.0f;
    asm volatile("bar.sync %0, 128;" ::"r"(1 + threadIdx.x / 128) : "memory");
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}
