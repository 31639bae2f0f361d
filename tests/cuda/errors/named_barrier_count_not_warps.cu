// PTX counts threads of a named barrier in whole warps.
__global__ void k(float *out) {
    __shared__ float s[128];
    if (threadIdx.x < 100) {
        s[threadIdx.x] = 1.0f;
        asm volatile("bar.sync 1, 100;" ::: "memory");
        out[threadIdx.x] = s[99 - threadIdx.x];
    }
}
