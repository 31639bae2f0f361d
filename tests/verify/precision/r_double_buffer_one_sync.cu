//--blockDim=128 --gridDim=1
__global__ void smooth(float *data, int iters) {
    __shared__ float a[128];
    __shared__ float b[128];
    int t = threadIdx.x;
    a[t] = data[t];
    __syncthreads();
    for (int it = 0; it < iters; it++) {
        float l = t > 0 ? a[t - 1] : a[t];
        b[t] = (l + a[t]) * 0.5f;
        __syncthreads();
        a[t] = b[t];
    }
    data[t] = a[t];
}
