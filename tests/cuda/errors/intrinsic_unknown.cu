__global__ void k(float *out) {
    __shared__ float s[32];
    out[threadIdx.x] = (float)__isShared(&s[threadIdx.x]);
}
