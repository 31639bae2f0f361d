__global__ void interleave(const int *a, const int *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[2 * i] = a[i];
        out[2 * i + 1] = b[i];
    }
}
