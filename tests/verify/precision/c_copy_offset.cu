const int OFFSET = 16;
__global__ void shifted_copy(const int *src, int *dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        dst[i + OFFSET] = src[i];
    }
}
