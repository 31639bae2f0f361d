//--blockDim=256 --gridDim=64
// Gather through an index array, read-only loads via __ldg.
__global__ void gather(const float *__restrict__ src, const int *__restrict__ idx,
                       float *__restrict__ dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = __ldg(&src[__ldg(idx + i)]);
}
