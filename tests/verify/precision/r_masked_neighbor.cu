__global__ void keep_even(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (in[i] & 1) == 0)
        out[i / 2] = in[i];
}
