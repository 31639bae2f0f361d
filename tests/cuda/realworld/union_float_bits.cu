//--blockDim=256 --gridDim=16
// Sign-magnitude to ordered-integer key conversion for radix sorting floats.
union FloatBits {
    float f;
    unsigned u;
};

__global__ void floatToKey(const float *in, unsigned *keys)
{
    int i = blockIdx.x * 256 + threadIdx.x;
    union FloatBits b;
    b.f = in[i];
    unsigned mask = (b.u & 0x80000000u) ? 0xffffffffu : 0x80000000u;
    keys[i] = b.u ^ mask;
}
