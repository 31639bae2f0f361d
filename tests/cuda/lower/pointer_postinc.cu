// `*p++` read and written: the value is the old offset, the pointer moves one element (a wide
// view's element counts the array's elements: `(uint *)bytes`, four per word).
__global__ void k(const float *in, float *out, int n) {
    __shared__ unsigned char bytes[256];
    const float *src = in + blockIdx.x * n;
    float *dst = out + blockIdx.x * n;
    for (int i = 0; i < n; ++i)
        *dst++ = *src++ * 2.0f;
    const unsigned int *w = (const unsigned int *)bytes + threadIdx.x;
    unsigned int a = *w++;
    unsigned int b = *--w;
    out[threadIdx.x] = a + b + *w--;
}
