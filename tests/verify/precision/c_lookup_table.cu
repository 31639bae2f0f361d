__constant__ int lut[16];
__global__ void map(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = lut[in[i] & 15];
}
