//--blockDim=128 --gridDim=1
// A pointer passed down two device functions, offset on the way.
__device__ void put(float *p, int i, float v) { p[i] = v; }

__device__ void put_half(float *p, int half, int i, float v) { put(p + half * 64, i, v); }

__global__ void fill(float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    put_half(s, t / 64, t % 64, (float)t);
    __syncthreads();
    out[t] = s[127 - t];
}
