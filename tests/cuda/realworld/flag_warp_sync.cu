//--blockDim=64 --gridDim=16 --warp-sync=32
// Old-style warp-synchronous tail: the last 32 partial sums are folded without barriers.
__global__ void sum64(const int *in, int *out)
{
    __shared__ volatile int s[64];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        s[t] += s[t + 16];
        s[t] += s[t + 8];
        s[t] += s[t + 4];
        s[t] += s[t + 2];
        s[t] += s[t + 1];
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
