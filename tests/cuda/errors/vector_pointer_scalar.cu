__global__ void k(float4 *v, float *out) {
    float4 *p = v + threadIdx.x;
    out[threadIdx.x] = p[0] + 1.0f;
}
