const int STRIDE = 2;
__global__ void pack(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[STRIDE * i] = in[i];
        out[STRIDE * i + 1] = in[i] + 1;
        out[STRIDE * i + 2] = in[i] + 2;
    }
}
