//--blockDim=64 --gridDim=4
// Compare-exchange through references to shared elements; the barrier between the load and the
// exchange, and the one before the store, are missing.
typedef unsigned int uint;

__device__ void order(uint &a, uint &b) {
    if (a > b) {
        const uint t = a;
        a = b;
        b = t;
    }
}

__global__ void k(uint *d) {
    __shared__ uint s[64];
    const uint tid = threadIdx.x;
    d += blockIdx.x * 64;
    s[tid] = d[tid];
    __syncthreads();
    if (tid < 32)
        order(s[2 * tid], s[2 * tid + 1]);
    __syncthreads();
    d[tid] = s[tid];
}
