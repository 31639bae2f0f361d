//--blockDim=64 --gridDim=1
__global__ void k(int *out, int limit) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    for (int d = 1; d < 64; d *= 2) {
        __syncthreads();
        if (d > limit)
            break;
        int v = s[(t + d) % 64];
        __syncthreads();
        s[t] += v;
    }
    out[t] = s[t];
}
