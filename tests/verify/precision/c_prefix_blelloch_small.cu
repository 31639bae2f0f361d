//--blockDim=64 --gridDim=1
__global__ void scan64(int *g) {
    __shared__ int t[64];
    int i = threadIdx.x;
    t[i] = g[i];
    __syncthreads();
    for (int d = 1; d < 64; d *= 2) {
        int v = 0;
        if (i >= d) v = t[i - d];
        __syncthreads();
        t[i] += v;
        __syncthreads();
    }
    g[i] = t[i];
}
