__global__ void k(float4 *v) {
    float4 *p = v + threadIdx.x;
    p[0].x = 1.0f;
}
