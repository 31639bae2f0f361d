//--blockDim=256 --gridDim=1
// 5-point 1-D stencil with clamped borders; min/max/abs pick the neighbours.
__global__ void clampStencil(const float *in, float *out)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    float acc = 0.0f;
    for (int d = -2; d <= 2; ++d) {
        int j = min(max(t + d, 0), 255);
        acc += s[j] * (3 - abs(d));
    }
    out[t] = acc / 9.0f;
}
