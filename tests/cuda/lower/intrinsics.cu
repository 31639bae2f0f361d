// Integer and float intrinsics: exact ones (min/max/abs/__mul24/__umul24, __ldg = a read,
// __stcg = a write) and opaque pure ones; printf and assert.
#include <cassert>
#include <cuda_fp16.h>
__global__ void stats(const unsigned *keys, const float *w, int *bits, float *out, unsigned n)
{
    int i = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
    unsigned k = __ldg(&keys[i]);
    int pop = __popc(k) + __clz(k) - __ffs(k);
    unsigned hi = __umulhi(k, 2654435769u) ^ __brevll(k);
    float x = __ldg(w + i);
    int q = __float2int_rn(x * 255.0f) + __float_as_int(x);
    float y = __saturatef(rsqrtf(fmaf(x, x, 1.0f))) + __int2float_rn(pop) + __half2float(__float2half(x));
    assert(i >= 0);
    if (i == 0)
        printf("n = %u, first = %f\n", n, y);
    bits[i] = min(abs(q), max(pop, (int)__umul24(hi, 3u)));
    __stcg(&out[i], y);
    long long t0 = clock64();
}
