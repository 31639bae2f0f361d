//--blockDim=256 --gridDim=1
#define LOAD(dst, src, i) dst[i] = src[i]
#define NEIGHBOUR(s, i) s[((i) + 1) % 256]
#define STORE(dst, i, v) \
    dst[blockIdx.x * 256 + (i)] = (v);

__global__ void shift(int *out, const int *in) {
    __shared__ int s[256];
    int t = threadIdx.x;
    LOAD(s, in, blockIdx.x * 256 + t);
    int v = NEIGHBOUR(s, t);
    s[t] = v * 2;
    STORE(out, t, NEIGHBOUR(s, t))
}
