//--blockDim=256 --gridDim=32
// Generic block reduction; the library never instantiates it in this file.
template <typename T>
__global__ void reduceSum(const T *in, T *out)
{
    __shared__ T s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] = s[t] + s[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
