//--blockDim=256 --gridDim=8
#define BLOCK 256
#define HALF (BLOCK / 2)

__global__ void reduce(int *out, const int *in) {
    __shared__ int s[BLOCK];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
#if BLOCK >= 512
    if (t < 256) s[t] += s[t + 256];
#endif
#if BLOCK >= 256
    if (t < HALF) s[t] += s[t + HALF];
#endif
    if (t < 64) s[t] += s[t + 64];
#ifdef WRITE_PAIRS
    if (t < 2) out[blockIdx.x * 2 + t] = s[t];
#else
    if (t == 0) out[blockIdx.x] = s[0];
#endif
}
