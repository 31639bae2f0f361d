// Pointers of one group compared: the same member's by their offsets, two members' in any
// order (C leaves it unspecified); `==` exact.
__global__ void k(float *out, int c) {
    __shared__ float a[64], b[64];
    float *p = c ? a : b;
    float *q = b + threadIdx.x;
    if (p < q)
        out[threadIdx.x] = 1.0f;
    if (p == q)
        out[threadIdx.x] = 2.0f;
}
