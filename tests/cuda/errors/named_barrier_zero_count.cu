// Barrier 0 is __syncthreads()'s: a thread count on it is refused.
__global__ void k(float *out) {
    __shared__ float s[128];
    if (threadIdx.x < 128) {
        s[threadIdx.x] = 1.0f;
        asm volatile("bar.sync 0, 128;" ::: "memory");
        out[threadIdx.x] = s[127 - threadIdx.x];
    }
}
