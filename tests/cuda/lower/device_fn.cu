__device__ int clampi(int x, int hi) {
    if (x > hi)
        return hi;
    return x;
}

__device__ void warp_step(volatile float *sdata, unsigned int tid, int off) {
    sdata[tid] += sdata[tid + off];
}

__global__ void k(float *g, int n) {
    __shared__ float s[64];
    unsigned int tid = threadIdx.x;
    s[tid] = g[clampi(tid, n)];
    __syncthreads();
    if (tid < 32) {
        warp_step(s, tid, 32);
        warp_step(s, tid, 16);
    }
    g[tid] = s[0];
}
