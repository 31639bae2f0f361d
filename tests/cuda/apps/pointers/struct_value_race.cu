//--blockDim=128 --gridDim=2
// As struct_value.cu, but the helper is given the thread's index within its block.
struct Span {
    const float *src;
    float *dst;
};

__device__ void axpy(Span s, int i, float a)
{
    s.dst[i] = a * s.src[i] + s.dst[i];
}

__global__ void run(const float *x, float *y, float a)
{
    Span s = { x, y };
    axpy(s, threadIdx.x, a);
}
