__global__ void histo(const unsigned char *buf, int size, unsigned int *bins) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int stride = blockDim.x * gridDim.x;
    while (i < size) {
        atomicAdd(&bins[buf[i]], 1);
        i += stride;
    }
}
