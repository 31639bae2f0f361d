//--blockDim=256 --gridDim=32
// Iterated 1-D smoothing in shared memory with two buffers. The helper picks the source and
// destination buffer by the parity of the step with `?:` on its pointer parameters. The
// barrier between steps is missing: step it+1 reads what neighbours wrote in step it.
#define N 256

__device__ void smoothStep(float *even, float *odd, int it, int i)
{
    const float *src = (it % 2 == 0) ? even : odd;
    float *dst = (it % 2 == 0) ? odd : even;
    float left = i > 0 ? src[i - 1] : src[i];
    float right = i < N - 1 ? src[i + 1] : src[i];
    dst[i] = 0.25f * left + 0.5f * src[i] + 0.25f * right;
}

__global__ void smooth(const float *in, float *out, int steps)
{
    __shared__ float a[N];
    __shared__ float b[N];
    int t = threadIdx.x;
    a[t] = in[blockIdx.x * N + t];
    __syncthreads();
    for (int it = 0; it < steps; ++it)
        smoothStep(a, b, it, t);
    __syncthreads();
    out[blockIdx.x * N + t] = (steps % 2 == 0) ? a[t] : b[t];
}
