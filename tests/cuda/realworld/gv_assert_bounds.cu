//--blockDim=[16,16] --gridDim=[4,4]
// Rotates every 16x16 tile of a 64x64 image by 180 degrees in place of the output.
#define W 64

__global__ void rotateTiles(const float *src, float *dst)
{
    __shared__ float tile[16][16];
    unsigned x = blockIdx.x * 16 + threadIdx.x;
    unsigned y = blockIdx.y * 16 + threadIdx.y;
    __assert(x < W && y < W);
    tile[threadIdx.y][threadIdx.x] = src[y * W + x];
    __syncthreads();
    dst[y * W + x] = tile[15 - threadIdx.y][15 - threadIdx.x];
}
