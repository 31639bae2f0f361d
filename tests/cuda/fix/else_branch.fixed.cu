//--blockDim=64 --gridDim=1
__global__ void k(int *out, int mode) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (mode > 0) {
        s[t] = t;
    } else {
        s[63 - t] = 2 * t;
    }
    __syncthreads();
    out[t] = s[(t + 1) % 64];
}
