__global__ void per_block_flag(int *flags) {
    __shared__ int seen;
    if (threadIdx.x == 0) seen = 1;
    flags[blockIdx.x * blockDim.x + threadIdx.x] = seen;
}
