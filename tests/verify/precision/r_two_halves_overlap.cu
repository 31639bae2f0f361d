__global__ void split(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i];
        out[n - 1 + i] = -in[i];
    }
}
