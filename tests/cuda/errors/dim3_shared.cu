__global__ void k(float *out) {
    __shared__ dim3 origin;
    if (threadIdx.x == 0) {
        origin = dim3(blockIdx.x * blockDim.x, 0);
    }
    __syncthreads();
    out[origin.x + threadIdx.x] = 1.0f;
}
