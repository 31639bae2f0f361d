//--blockDim=256
__global__ void stage(const float *in, float *out, int n) {
    __shared__ float s[256];
    int g = blockIdx.x * 256 + threadIdx.x;
    s[threadIdx.x] = g < n ? in[g] : 0.0f;
    __syncthreads();
    float left = threadIdx.x > 0 ? s[threadIdx.x - 1] : 0.0f;
    if (g < n) out[g] = s[threadIdx.x] - left;
}
