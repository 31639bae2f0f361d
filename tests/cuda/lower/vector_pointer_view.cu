__global__ void k(float4 *v) {
    float *f = (float *)v;
    f[threadIdx.x] = 1.0f;
}
