//--blockDim=128 --gridDim=32
// Fast-math vector ops: inverse square roots, fused multiply-adds, rounding to int.
__global__ void quantizeUnit(const float3 *v, int3 *q, float scale)
{
    int i = blockIdx.x * 128 + threadIdx.x;
    float3 a = v[i];
    float inv = rsqrtf(fmaf(a.x, a.x, fmaf(a.y, a.y, a.z * a.z)) + 1e-12f);
    int3 r;
    r.x = __float2int_rn(a.x * inv * scale);
    r.y = __float2int_rn(a.y * inv * scale);
    r.z = __float2int_rn(__fmul_rn(a.z, inv) * scale);
    q[i] = r;
    float e = __expf(-fabsf(a.x)) + __logf(1.0f + a.y * a.y) + __saturatef(a.z) + exp2f(a.x);
    if (e < 0.0f)
        q[i].x = __float_as_int(e) + __float2uint_rz(a.y) + (int)truncf(a.z);
}
