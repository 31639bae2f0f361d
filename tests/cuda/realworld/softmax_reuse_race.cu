//--blockDim=128 --gridDim=256
// Row softmax over 128 logits reusing one shared buffer for both reductions; the broadcast of
// the maximum is not protected from the second phase.
__global__ void softmax128(const float *x, float *y)
{
    __shared__ float buf[128];
    int t = threadIdx.x;
    float v = x[blockIdx.x * 128 + t];
    buf[t] = v;
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s)
            buf[t] = fmaxf(buf[t], buf[t + s]);
        __syncthreads();
    }
    float e = __expf(v - buf[0]);
    buf[t] = e;
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    y[blockIdx.x * 128 + t] = e / buf[0];
}
