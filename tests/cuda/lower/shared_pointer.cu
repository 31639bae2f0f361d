// Pointers stored in shared memory: a `__shared__` pointer and a struct of pointers.
struct Views { float *src; float *dst; };
__global__ void k(float *a, float *b) {
    __shared__ float *base;
    __shared__ Views v;
    if (threadIdx.x == 0) {
        base = a + blockIdx.x * 64;
        v.src = a;
        v.dst = b;
    }
    __syncthreads();
    v.dst[threadIdx.x] = base[threadIdx.x] + v.src[threadIdx.x];
}
