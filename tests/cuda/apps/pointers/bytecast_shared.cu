//--blockDim=64 --gridDim=1
// Two regions of one shared pool, the second found by a byte offset through `char *`.
__global__ void carve(float *out)
{
    __shared__ float pool[128];
    char *bytes = (char *)pool;
    float *first = pool;
    float *second = (float *)(bytes + 64 * sizeof(float));
    first[threadIdx.x] = 1.0f;
    second[threadIdx.x] = 2.0f;
    __syncthreads();
    out[threadIdx.x] = first[63 - threadIdx.x] + second[63 - threadIdx.x];
}
