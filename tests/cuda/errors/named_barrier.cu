__global__ void k(float *out) {
    __shared__ float s[256];
    if (threadIdx.x < 128) s[threadIdx.x] = 1.0f;
    asm volatile("bar.sync 1, 256;" ::: "memory");
    out[threadIdx.x] = s[threadIdx.x % 128];
}
