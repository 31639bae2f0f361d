// An array of pointers into a shared and a global array: no one array holds both.
__global__ void k(float *g) {
    __shared__ float s[64];
    float *bufs[2] = { s, g };
    bufs[threadIdx.x & 1][threadIdx.x] = 1.0f;
}
