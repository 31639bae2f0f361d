//--blockDim=[8,8,4]
__global__ void vol_clear(float *vol, int nx, int ny) {
    int x = blockIdx.x * 8 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    if (x < nx && y < ny)
        vol[y * nx + x] = 0.0f;
}
