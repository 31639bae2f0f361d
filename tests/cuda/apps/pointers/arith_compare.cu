//--blockDim=64 --gridDim=1
// A pointer-bounded strided loop (`p < end`) clears a shared array; pointer difference
// `mine - s` is used as a value.
__global__ void clear_stride(float *out)
{
    __shared__ float s[256];
    float *end = s + 256;
    for (float *p = s + threadIdx.x; p < end; p += blockDim.x)
        *p = 0.0f;
    __syncthreads();
    float *mine = s + 4 * threadIdx.x;
    out[threadIdx.x] = mine[0] + mine[3] + (float)(mine - s);
}
