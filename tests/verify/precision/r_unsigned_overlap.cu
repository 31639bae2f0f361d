__global__ void clamp(unsigned int *v, unsigned int n, unsigned int hi) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && v[i] > hi) v[i >> 1] = hi;
}
