__global__ void threshold(const float *in, unsigned char *mask, float t, int n) {
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i >= n)
        return;
    mask[i] = in[i] > t ? 1 : 0;
}
