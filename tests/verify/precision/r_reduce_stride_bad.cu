//--blockDim=256
__global__ void reduce_interleaved(int *g) {
    __shared__ int s[256];
    unsigned int t = threadIdx.x;
    s[t] = g[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned int stride = 1; stride < 256; stride *= 2) {
        if (t % (2 * stride) == 0) s[t] += s[t + stride];
    }
    if (t == 0) g[blockIdx.x] = s[0];
}
