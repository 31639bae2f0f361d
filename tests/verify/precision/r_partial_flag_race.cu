__global__ void partials(const int *in, int *partial, int n) {
    __shared__ int acc;
    if (threadIdx.x == 0) acc = 0;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&acc, in[i]);
    __syncthreads();
    if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}
