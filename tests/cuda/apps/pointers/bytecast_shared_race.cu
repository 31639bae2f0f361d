//--blockDim=64 --gridDim=1
// As bytecast_shared.cu, but the offset is counted in elements where bytes are meant.
__global__ void carve(float *out)
{
    __shared__ float pool[128];
    char *bytes = (char *)pool;
    float *first = pool;
    float *second = (float *)(bytes + 64);
    first[threadIdx.x] = 1.0f;
    second[threadIdx.x] = 2.0f;
    __syncthreads();
    out[threadIdx.x] = first[63 - threadIdx.x] + second[63 - threadIdx.x];
}
