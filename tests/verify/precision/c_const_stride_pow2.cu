const int HEADER = 8;
__global__ void pack_pairs(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[HEADER + 2 * i] = in[i];
        out[HEADER + 2 * i + 1] = -in[i];
    }
}
