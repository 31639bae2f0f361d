__global__ void k(float *g) {
    __shared__ float s[64];
    float *p = threadIdx.x < 32 ? s : g;
    p[threadIdx.x] = 1.0f;
}
