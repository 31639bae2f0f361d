//--blockDim=64 --gridDim=1
__global__ void k(int *out, int limit) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    for (int d = 1; d < 64; d *= 2) {
        if (d > limit)
            break;
        __syncthreads();
        int v = s[(t + d) % 64];
        __syncthreads();
        s[t] += v;
    }
    out[t] = s[t];
}
