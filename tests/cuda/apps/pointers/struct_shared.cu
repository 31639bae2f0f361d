//--blockDim=64 --gridDim=1
// A `__shared__` struct holding two pointers, set by thread 0 and read by every thread after
// the barrier.
struct Views {
    float *src;
    float *dst;
};

__global__ void staged(float *a, float *b)
{
    __shared__ Views v;
    if (threadIdx.x == 0) {
        v.src = a;
        v.dst = b;
    }
    __syncthreads();
    v.dst[threadIdx.x] = v.src[threadIdx.x] + 1.0f;
}
