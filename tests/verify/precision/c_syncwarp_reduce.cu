//--blockDim=64 --gridDim=1
__global__ void warp_sums(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncwarp();
    for (int off = 16; off > 0; off /= 2) {
        int v = 0;
        if ((t % 32) < off) v = s[t + off];
        __syncwarp();
        if ((t % 32) < off) s[t] += v;
        __syncwarp();
    }
    if (t % 32 == 0) out[t / 32] = s[t];
}
