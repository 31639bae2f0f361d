//--blockDim=64 --gridDim=8
__global__ void k(const int *in, int *out, int nblocks) {
    __shared__ int s[64];
    if (blockIdx.x >= nblocks)
        return;
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    out[blockIdx.x * 64 + t] = s[63 - t];
}
