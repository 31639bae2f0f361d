// A member operator of a struct (`p[k]` with `operator[]`): clang passes the object first; it is
// `this` of the inlined call.
struct Packed4 {
    float v[4];
    __device__ float operator[](int k) const { return v[k]; }
};

__global__ void sum4(const Packed4 *in, float *out)
{
    Packed4 p = in[threadIdx.x];
    float s = 0.f;
    for (int k = 0; k < 4; ++k)
        s += p[k];
    out[threadIdx.x] = s;
}
