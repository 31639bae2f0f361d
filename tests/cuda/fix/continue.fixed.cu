//--blockDim=64 --gridDim=1
__global__ void k(int *out, int skip) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 0;
    for (int i = 0; i < 8; i++) {
        __syncthreads();
        if (i == skip)
            continue;
        s[(t + i) % 64] += 1;
    }
    __syncthreads();
    out[t] = s[t];
}
