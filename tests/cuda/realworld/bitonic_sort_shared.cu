//--blockDim=256 --gridDim=8
// Bitonic sort of 256 keys per block, one comparator per thread and step.
__device__ inline void swapIf(unsigned *a, unsigned *b, bool up)
{
    if ((*a > *b) == up) {
        unsigned t = *a;
        *a = *b;
        *b = t;
    }
}

__global__ void bitonicSort(unsigned *keys)
{
    __shared__ unsigned s[256];
    unsigned t = threadIdx.x;
    s[t] = keys[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned size = 2; size <= 256; size <<= 1) {
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            unsigned partner = t ^ stride;
            if (partner > t)
                swapIf(&s[t], &s[partner], (t & size) == 0);
            __syncthreads();
        }
    }
    keys[blockIdx.x * 256 + t] = s[t];
}
