//--blockDim=64 --gridDim=1
// As arith_offset.cu, but the second half starts at `buf + 32`: the halves overlap.
__global__ void halves(float *out)
{
    __shared__ float buf[128];
    int t = threadIdx.x;
    float *hi = buf + 32;
    buf[t] = t;
    hi[t] = 2.0f * t;
    __syncthreads();
    out[t] = buf[63 - t] + hi[63 - t];
}
