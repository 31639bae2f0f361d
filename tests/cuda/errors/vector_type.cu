__global__ void k(float4 *v) {
    int i = threadIdx.x;
    float4 a = v[i] + v[i + 1];
    v[i] = a;
}
