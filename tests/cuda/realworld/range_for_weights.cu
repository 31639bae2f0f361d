//--blockDim=128 --gridDim=8
// Weighted sum over a fixed local array with a range-based for.
__global__ void weighted(const float *in, float *out)
{
    const float w[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    int i = blockIdx.x * 128 + threadIdx.x;
    float acc = 0.0f;
    int k = 0;
    for (float wk : w) {
        acc += wk * in[4 * i + k];
        ++k;
    }
    out[i] = acc;
}
