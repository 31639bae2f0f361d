//--blockDim=64 --gridDim=1
// As ptrarray_pingpong.cu without the barrier at the end of each step.
__global__ void ping(float *out)
{
    __shared__ float a[64], b[64];
    float *bufs[2] = { a, b };
    int t = threadIdx.x;
    a[t] = (float)t;
    __syncthreads();
    for (int k = 0; k < 4; ++k) {
        float *src = bufs[k & 1];
        float *dst = bufs[(k + 1) & 1];
        dst[t] = src[(t + 1) % 64] * 0.5f;
    }
    out[t] = a[t];
}
