//--blockDim=128 --gridDim=4
__global__ void reduce(const float *in, float *out) {
    __shared__ float s[128];
    unsigned int t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    for (unsigned int d = 64; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d)
            s[t] += s[t + d];
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
