//--blockDim=128 --gridDim=16
// Two arrays carved out of one dynamic shared allocation; the second is filled from the first
// without waiting for it.
__global__ void prefixPairs(const float *in, float *out)
{
    extern __shared__ float pool[];
    float *a = pool;
    float *b = pool + blockDim.x;
    unsigned t = threadIdx.x;
    a[t] = in[blockIdx.x * blockDim.x + t];
    b[t] = t > 0 ? a[t] + a[t - 1] : a[t];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = b[blockDim.x - 1 - t];
}
