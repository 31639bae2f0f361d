// Unions whose members' words have one size: the first member with the most words names them,
// the others alias them from word 0 (an array member's element i is word i; a struct member's
// fields its words in order). Reading another member reinterprets the bits.
union Quad {
    float4 v;
    float a[4];
};

struct Pair {
    float lo[2];
    float hi[2];
};

union Bits {
    unsigned w[4];
    Pair p;
};

__global__ void quads(const float4 *in, float *out, unsigned *bits)
{
    const int t = threadIdx.x;
    Quad q;
    q.v = in[t];
    float s = 0.0f;
    for (int i = 0; i < 4; ++i)
        s += q.a[i];
    __shared__ Bits b[32];
    b[t % 32].p.hi[t % 2] = s;
    bits[t] = b[t % 32].w[2 + t % 2];
    out[t] = q.a[3];
}
