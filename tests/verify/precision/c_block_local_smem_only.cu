__global__ void scratch(int *dummy) {
    __shared__ int s[1024];
    s[threadIdx.x] = threadIdx.x * 2;
    __syncthreads();
    int v = s[(threadIdx.x + 1) % blockDim.x];
    if (threadIdx.x == 0 && v < 0) dummy[blockIdx.x] = v;
}
