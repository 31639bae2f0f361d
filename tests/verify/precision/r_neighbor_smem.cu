__global__ void diff(const float *in, float *out) {
    __shared__ float s[512];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    if (t > 0) out[blockIdx.x * blockDim.x + t] = s[t] - s[t - 1];
}
