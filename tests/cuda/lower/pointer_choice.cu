//--blockDim=128 --gridDim=16
// Pointers that point into one of several arrays: ping-pong buffers chosen by `?:`, a pointer
// declared first and assigned in both branches of an `if`, and one re-pointed later.
__global__ void relax(const float *left, const float *right, float *out, int steps, int side)
{
    __shared__ float ping[130];
    __shared__ float pong[130];
    const float *src;
    if (side == 0)
        src = left;
    else
        src = right;
    int t = threadIdx.x + 1;
    ping[t] = src[blockIdx.x * 128 + threadIdx.x];
    if (threadIdx.x == 0)
        ping[0] = ping[129] = pong[0] = pong[129] = 0.0f;
    __syncthreads();
    for (int s = 0; s < steps; ++s) {
        float *cur = (s % 2 == 0) ? ping : pong;
        float *nxt = (s % 2 == 0) ? pong : ping;
        nxt[t] = 0.5f * (cur[t - 1] + cur[t + 1]);
        __syncthreads();
    }
    float *last = ping;
    if (steps % 2 == 1)
        last = pong;
    out[blockIdx.x * 128 + threadIdx.x] = *(last + t);
}
