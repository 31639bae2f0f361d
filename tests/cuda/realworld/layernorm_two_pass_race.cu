//--blockDim=256 --gridDim=32
// Two-pass LayerNorm (mean, then variance) sharing one reduction buffer; the second pass
// starts writing the buffer while thread 0's mean may not be visible yet.
__global__ void layerNorm256(float *x, float eps)
{
    __shared__ float red[256];
    __shared__ float mean, rstd;
    int t = threadIdx.x;
    float v = x[blockIdx.x * 256 + t];
    red[t] = v;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    if (t == 0) mean = red[0] / 256.0f;
    float d = v - mean;
    red[t] = d * d;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    if (t == 0) rstd = rsqrtf(red[0] / 256.0f + eps);
    __syncthreads();
    x[blockIdx.x * 256 + t] = d * rstd;
}
