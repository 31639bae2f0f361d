//--blockDim=64 --gridDim=1
__global__ void k(int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int d = 1;
    s[t] = t;
step:
    __syncthreads();
    int v = s[(t + d) % 64];
    __syncthreads();
    s[t] += v;
    d *= 2;
    if (d < n)
        goto step;
    out[t] = s[t];
}
