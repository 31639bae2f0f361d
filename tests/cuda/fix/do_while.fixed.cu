//--blockDim=64 --gridDim=1
__global__ void k(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    int d = 32;
    do {
        int v = s[(t + d) % 64];
        __syncthreads();
        s[t] = v + 1;
        __syncthreads();
        d >>= 1;
    } while (d > 0);
    out[t] = s[0];
}
