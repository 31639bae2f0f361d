__global__ void fill(unsigned int *out, unsigned int value, unsigned int n)
{
    unsigned int stride = gridDim.x * blockDim.x;
    for (unsigned int idx = threadIdx.x + blockIdx.x * blockDim.x; idx < n; idx += stride)
        out[idx] = value;
}
