//--blockDim=128 --gridDim=4
// 8-tap moving average: each thread keeps a private window, the shared buffer is refilled per
// chunk. The barrier that protects the refill is missing.
__global__ void movingAvg(const float *in, float *out, int chunks)
{
    __shared__ float buf[128];
    float win[8];
    for (int k = 0; k < 8; ++k)
        win[k] = 0.0f;
    for (int c = 0; c < chunks; ++c) {
        buf[threadIdx.x] = in[(c * 4 + blockIdx.x) * 128 + threadIdx.x];
        __syncthreads();
        for (int k = 7; k > 0; --k)
            win[k] = win[k - 1];
        win[0] = buf[(threadIdx.x + c) % 128];
        float s = 0.0f;
        for (int k = 0; k < 8; ++k)
            s += win[k];
        out[(c * 4 + blockIdx.x) * 128 + threadIdx.x] = s / 8.0f;
    }
}
