// Overloads of one arity, chosen by the argument types (C++'s ranking of conversions).
__device__ int clampv(int x, int lo, int hi) { return max(lo, min(x, hi)); }
__device__ float clampv(float x, float lo, float hi) { return fmaxf(lo, fminf(x, hi)); }
__device__ unsigned half_of(unsigned x) { return x >> 1; }
__device__ int half_of(int x) { return x / 2; }
__device__ float pick(float4 v) { return v.y; }
__device__ float pick(float2 v) { return v.x; }
__device__ int idx(const int *p) { return p[0]; }
__device__ int idx(const float *p) { return 1; }
template <typename T> __device__ T twice(T x) { return x + x; }
__device__ float2 fminf(float2 a, float2 b) { return make_float2(fminf(a.x, b.x), fminf(a.y, b.y)); }
__device__ float twice(float x) { return 2.0f * x; }

__global__ void k(float *out, const int *rows, const float4 *v, float s, int n) {
    __shared__ int tile[64];
    int t = threadIdx.x;
    tile[t] = clampv(t - 1, 0, n);          // int
    float f = clampv(s, 0.0f, 1.0f);        // float
    int g = clampv(t, 0, 31u);              // int: exact at two arguments, a conversion at one
    int h = half_of(t);                     // int (the unsigned one is a conversion)
    unsigned u = half_of(7u);               // unsigned literal: exact
    float4 a = v[t];
    float2 m = fminf(make_float2(s, f), make_float2(f, s)); // the file's fminf
    float p = pick(a) + pick(m) + fminf(s, f);             // the built-in fminf
    int r = idx(rows) + idx(out);
    float w = twice(1.5f);                  // the non-template wins the tie
    w += twice(f);                          // `f` is declared `float`: the same
    u += half_of(u);                        // `u` is declared `unsigned`: exact
    int i = twice<int>(t);                  // explicit template arguments: one candidate
    __syncthreads();
    out[t] = f + g + p + w + (float)(tile[h] + u + r + i);
}
