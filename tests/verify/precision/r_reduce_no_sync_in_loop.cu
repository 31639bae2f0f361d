__global__ void block_sum(const float *in, float *out) {
    __shared__ float sdata[256];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}
