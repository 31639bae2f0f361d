//--blockDim=128 --gridDim=32
// Pre-Volta warp-synchronous reduction tail, run without lock-step warps (no --warp-sync).
__global__ void reduceWarpTail(const int *in, int *out)
{
    __shared__ volatile int s[128];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    if (t < 64)
        s[t] += s[t + 64];
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
