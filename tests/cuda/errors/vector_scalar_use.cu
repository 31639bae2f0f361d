__global__ void k(float4 *v, float *out) {
    out[threadIdx.x] = v[threadIdx.x];
}
