//--blockDim=256
__global__ void pairwise(const float *in, float *out) {
    __shared__ float s[512];
    unsigned int t = threadIdx.x;
    unsigned int base = blockIdx.x * 512;
    s[t] = in[base + t];
    s[t + 256] = in[base + t + 256];
    __syncthreads();
    s[2 * t] = s[2 * t] + s[2 * t + 1];
    out[blockIdx.x * 256 + t] = s[t];
}
