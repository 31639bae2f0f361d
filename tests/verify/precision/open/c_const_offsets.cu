const int HEADER = 8;
const int STRIDE = 3;
__global__ void pack(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[HEADER + STRIDE * i] = in[i];
        out[HEADER + STRIDE * i + 1] = in[i] + 1;
        out[HEADER + STRIDE * i + 2] = in[i] + 2;
    }
}
