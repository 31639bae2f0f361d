// Multi-dimensional array parameters: rows of 256 floats, the row count unknown.
__global__ void transposeTile(float in[][256], float out[][256])
{
    __shared__ float tile[16][17];
    int c = blockIdx.x * 16 + threadIdx.x;
    int r = blockIdx.y * 16 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[r][c];
    __syncthreads();
    out[blockIdx.x * 16 + threadIdx.y][blockIdx.y * 16 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
