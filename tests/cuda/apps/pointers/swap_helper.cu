//--blockDim=64 --gridDim=1
// Ping-pong smoothing; the buffers are swapped by a device function taking the two pointers
// by reference.
__device__ void swap_bufs(float *&a, float *&b)
{
    float *t = a;
    a = b;
    b = t;
}

__global__ void smooth(float *data)
{
    __shared__ float x[66], y[66];
    float *cur = x, *nxt = y;
    int t = threadIdx.x + 1;
    x[t] = data[threadIdx.x];
    if (threadIdx.x == 0) {
        x[0] = 0.0f; x[65] = 0.0f;
        y[0] = 0.0f; y[65] = 0.0f;
    }
    __syncthreads();
    for (int it = 0; it < 4; ++it) {
        nxt[t] = (cur[t - 1] + cur[t] + cur[t + 1]) / 3.0f;
        __syncthreads();
        swap_bufs(cur, nxt);
    }
    data[threadIdx.x] = cur[t];
}
