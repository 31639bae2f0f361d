struct Pair {
    int key;
    float val;
};

__global__ void k(float4 *v, Pair *pairs, int n) {
    __shared__ Pair s[64];
    __shared__ uint2 u[32];
    unsigned int t = threadIdx.x;
    float4 a = v[t];
    a.y += 1.0f;
    v[t] = a;
    v[t].w = a.x;
    s[t].key = pairs[t].key;
    s[t].val = 2.0f;
    u[t % 32] = make_uint2(t, n);
    Pair p = s[63 - t];
    pairs[t] = p;
    float3 f = make_float3(a.x, a.y, p.val);
    v[n].z = f.z;
}
