__global__ void half(float *v) {
    __shared__ float s[256];
    if (threadIdx.x < 128) {
        s[threadIdx.x] = v[threadIdx.x];
        __syncthreads();
        v[threadIdx.x] = s[127 - threadIdx.x];
    }
}
