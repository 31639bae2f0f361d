// Named barriers from inline PTX: a barrier of half the block (literal operands), and a
// producer/consumer hand-off through a helper whose id and count are constants.
__device__ __forceinline__ void bar_arrive(int id, int n) {
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory");
}
__device__ __forceinline__ void bar_sync(int id, int n) {
    asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}
__global__ void k(float *out) {
    __shared__ float s[256];
    if (threadIdx.x < 128) {
        s[threadIdx.x] = 1.0f;
        asm volatile("bar.sync 1, 128;" ::: "memory");
        out[threadIdx.x] = s[127 - threadIdx.x];
    } else {
        s[threadIdx.x] = 2.0f;
        bar_arrive(2, 256);
    }
    if (threadIdx.x < 128) {
        bar_sync(2, 256);
        out[threadIdx.x] += s[128 + threadIdx.x];
    }
}
