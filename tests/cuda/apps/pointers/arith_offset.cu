//--blockDim=64 --gridDim=1
// Pointer arithmetic: the upper half of a shared buffer is reached through `buf + 64`.
__global__ void halves(float *out)
{
    __shared__ float buf[128];
    int t = threadIdx.x;
    float *hi = buf + 64;
    buf[t] = t;
    hi[t] = 2.0f * t;
    __syncthreads();
    out[t] = buf[63 - t] + hi[63 - t];
}
