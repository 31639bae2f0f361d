__global__ void incr(float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float *p = &y[i];
        p[0] = p[0] + 1.0f;
    }
}
