//--blockDim=64 --gridDim=1
__global__ void k(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    int d = 32;
    do {
        __syncthreads();
        int v = s[(t + d) % 64];
        __syncthreads();
        s[t] = v + 1;
        d >>= 1;
    } while (d > 0);
    __syncthreads();
    out[t] = s[0];
}
