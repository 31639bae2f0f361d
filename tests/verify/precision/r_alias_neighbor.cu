__global__ void incr(float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 1 < n) {
        float *p = &y[i + 1];
        *p = y[i] + 1.0f;
    }
}
