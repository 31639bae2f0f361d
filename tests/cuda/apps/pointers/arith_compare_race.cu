//--blockDim=64 --gridDim=1
// As arith_compare.cu without the barrier between the clearing loop and the reads.
__global__ void clear_stride(float *out)
{
    __shared__ float s[256];
    float *end = s + 256;
    for (float *p = s + threadIdx.x; p < end; p += blockDim.x)
        *p = 0.0f;
    float *mine = s + 4 * threadIdx.x;
    out[threadIdx.x] = mine[0] + mine[3] + (float)(mine - s);
}
