// Thread i writes out[i] and out[n + i]: the halves never meet.
__global__ void split(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i];
        out[n + i] = -in[i];
    }
}
