//--blockDim=[8,8] --gridDim=1
__global__ void flip(float *m) {
    __shared__ float t[8][8];
    t[threadIdx.y][threadIdx.x] = m[threadIdx.y * 8 + threadIdx.x];
    __syncthreads();
    m[threadIdx.y * 8 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
