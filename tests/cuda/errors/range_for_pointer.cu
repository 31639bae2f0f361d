__global__ void sum(const float *in, float *out)
{
    float acc = 0.0f;
    for (float v : in)
        acc += v;
    out[threadIdx.x] = acc;
}
