//--blockDim=16,16 --gridDim=1
__global__ void smooth(float *a, int iters) {
    __shared__ float tile[16][16];
    int x = threadIdx.x, y = threadIdx.y;
    for (int k = 0; k < iters; k++) {
        for (int j = 0; j < 2; j++) {
            __syncthreads();
            tile[y][x] = a[y * 16 + x];
            __syncthreads();
            a[y * 16 + x] = tile[x][y];
        }
    }
}
