__global__ void histo(const unsigned char *buf, int size, unsigned int *bins) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < size) {
        unsigned char b = buf[i];
        bins[b] = bins[b] + 1;
    }
}
