//--blockDim=[8,8,4]
__global__ void vol_clear(float *vol, int nx, int ny, int nz) {
    int x = blockIdx.x * 8 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    int z = blockIdx.z * 4 + threadIdx.z;
    if (x < nx && y < ny && z < nz)
        vol[(z * ny + y) * nx + x] = 0.0f;
}
