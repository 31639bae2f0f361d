// Reference parameters of device functions: bound to the argument lvalue, indices fixed at the call.
typedef unsigned int uint;

__device__ void swap(uint &a, uint &b) {
    const uint t = a;
    a = b;
    b = t;
}

__device__ void bump(uint &x, const uint &by) { x += by; }

__device__ void twice(uint &y) { bump(y, 2u); }

__device__ void addAll(uint4 &v, uint a) {
    v.x += a;
    v.w = v.x;
}

__device__ void store(float2 &dst, const float2 &src) { dst = src; }

__device__ void setField(float &f) { f = 1.0f; }

// Moving the index variable through another reference does not move `a`.
__device__ void moveIdx(uint &a, uint &idx) {
    idx = idx + 1;
    a = 7;
}

__global__ void k(uint *d, uint4 *q, float2 *r) {
    __shared__ uint s[64];
    __shared__ float2 sv[64];
    uint i = threadIdx.x;
    uint n = 0;
    swap(s[i], s[i ^ 1]);
    i = 0;
    bump(n, i + 3);
    twice(s[n]);
    uint4 v = q[threadIdx.x];
    addAll(v, n);
    addAll(q[n], 1u);
    store(sv[threadIdx.x], r[threadIdx.x]);
    setField(sv[n].y);
    float2 w = r[0];
    setField(w.x);
    moveIdx(s[n], n);
    d[threadIdx.x] = s[threadIdx.x] + v.w;
    r[threadIdx.x] = w;
}
