// Pointers into arrays of vectors count elements; fields are words (element * fields + field).
__device__ inline float2 cmul(float2 a, float2 b) {
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__device__ void put(float2 *p, unsigned int i, float2 v) { p[i] = v; }

__global__ void k(float2 *d, float *out) {
    __shared__ float2 s[64];
    d += blockIdx.x * 64;
    float2 *row = s + 32;
    s[threadIdx.x] = d[threadIdx.x];
    __syncthreads();
    const float2 t = cmul(row[threadIdx.x & 31], s[0]);
    float sn, cs;
    __sincosf(t.x, &sn, &cs);
    put(d, threadIdx.x, t);
    row[1].y = sn + cs;
    out[__brev(threadIdx.x) >> 26] = row[0].x;
}
