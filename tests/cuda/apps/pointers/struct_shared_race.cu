//--blockDim=64 --gridDim=1
// As struct_shared.cu without the barrier: the pointers are read while thread 0 writes them.
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
    v.dst[threadIdx.x] = v.src[threadIdx.x] + 1.0f;
}
