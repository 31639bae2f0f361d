//--blockDim=64 --gridDim=1
// As fresh_local_fn.cu without the barrier before thread 0's sum.
__device__ void load4(float *dst, const float *src)
{
    for (int k = 0; k < 4; ++k)
        dst[k] = src[k];
}

__device__ float sum4(const float *v) { return v[0] + v[1] + v[2] + v[3]; }

__global__ void blocksum(const float *in, float *out)
{
    __shared__ float part[64];
    float regs[4];
    int t = threadIdx.x;
    load4(regs, in + 4 * t);
    part[t] = sum4(regs);
    if (t == 0) {
        float s = 0.0f;
        for (int i = 0; i < 64; ++i)
            s += part[i];
        out[0] = s;
    }
}
