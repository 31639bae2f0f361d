//--blockDim=64 --gridDim=1
__global__ void claim(int *out) {
    __shared__ int slot[64];
    unsigned int t = threadIdx.x;
    slot[t] = -1;
    __syncthreads();
    int old = atomicCAS(&slot[(t * 7) & 63], -1, (int)t);
    __syncthreads();
    out[t] = old + slot[t];
}
