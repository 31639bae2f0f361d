//--blockDim=[32,32]
#define TILE 32
__global__ void transpose(float *odata, const float *idata, int width, int height) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height)
        tile[threadIdx.y][threadIdx.x] = idata[y * width + x];
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < height && y < width)
        odata[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
