__global__ void build_lut(int *lut, const int *keys, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) lut[keys[i] & 15] = i;
}
