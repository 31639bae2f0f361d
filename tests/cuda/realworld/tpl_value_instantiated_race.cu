//--blockDim=64 --gridDim=8
// Block-size template parameter with explicit instantiations; the step barrier is missing.
template <unsigned BLOCK>
__global__ void maxReduce(const int *in, int *out)
{
    __shared__ int s[BLOCK];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (unsigned k = BLOCK / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] = s[t] > s[t + k] ? s[t] : s[t + k];
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

template __global__ void maxReduce<64>(const int *, int *);
