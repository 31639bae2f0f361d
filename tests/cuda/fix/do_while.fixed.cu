//--blockDim=64 --gridDim=1
__global__ void k(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    int d = 32;
    __syncthreads();
    do {
        int v = s[(t + d) % 64];
        __syncthreads();
        s[t] = v + 1;
        d >>= 1;
        __syncthreads();
    } while (d > 0);
    out[t] = s[0];
}
