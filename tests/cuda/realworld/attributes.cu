//--blockDim=64 --gridDim=32
// Attribute syntax of several flavours on a clean kernel.
__device__ __forceinline__ float sq(float x) { return x * x; }
static __device__ __noinline__ float cube(float x) { return x * x * x; }

__global__ void __attribute__((used)) powers(const float *in, float2 *out)
{
    [[maybe_unused]] int unusedCounter = 0;
    __attribute__((unused)) int other = 1;
    int i = blockIdx.x * 64 + threadIdx.x;
    float v = in[i];
    if (__builtin_expect(v != 0.0f, 1))
        out[i] = make_float2(sq(v), cube(v));
    else
        out[i] = make_float2(0.0f, 0.0f);
}
