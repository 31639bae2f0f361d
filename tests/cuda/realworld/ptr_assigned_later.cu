//--blockDim=128 --gridDim=8
// Selects the input buffer through a pointer declared without initializer.
__global__ void pick(const float *even, const float *odd, float *out, int which)
{
    const float *src;
    if (which % 2 == 0)
        src = even;
    else
        src = odd;
    __shared__ float s[128];
    int g = blockIdx.x * 128 + threadIdx.x;
    s[threadIdx.x] = src[g];
    __syncthreads();
    out[g] = s[127 - threadIdx.x];
}
