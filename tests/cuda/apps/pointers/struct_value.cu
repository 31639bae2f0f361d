//--blockDim=128 --gridDim=2
// A struct holding two pointers, built in the kernel and passed by value to a device function.
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
    axpy(s, blockIdx.x * blockDim.x + threadIdx.x, a);
}
