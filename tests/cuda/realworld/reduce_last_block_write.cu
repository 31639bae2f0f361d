//--blockDim=256 --gridDim=16
// Block reduction that writes the result of every block to the same output cell.
__global__ void reduceAll(const float *in, float *result)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned k = 128; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        result[0] = s[0];
}
