//--blockDim=[16,16] --gridDim=[8,8]
// Sobel magnitude from a texture object, via a shared tile; the tile barrier is missing.
__global__ void sobel(cudaTextureObject_t img, float *out)
{
    __shared__ float tile[18][18];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    tile[ty][tx] = tex2D<float>(img, x + 0.5f, y + 0.5f);
    if (threadIdx.x == 0) tile[ty][0] = tex2D<float>(img, x - 0.5f, y + 0.5f);
    if (threadIdx.x == 15) tile[ty][17] = tex2D<float>(img, x + 1.5f, y + 0.5f);
    if (threadIdx.y == 0) tile[0][tx] = tex2D<float>(img, x + 0.5f, y - 0.5f);
    if (threadIdx.y == 15) tile[17][tx] = tex2D<float>(img, x + 0.5f, y + 1.5f);
    float gx = tile[ty - 1][tx + 1] + 2 * tile[ty][tx + 1] + tile[ty + 1][tx + 1]
             - tile[ty - 1][tx - 1] - 2 * tile[ty][tx - 1] - tile[ty + 1][tx - 1];
    float gy = tile[ty + 1][tx - 1] + 2 * tile[ty + 1][tx] + tile[ty + 1][tx + 1]
             - tile[ty - 1][tx - 1] - 2 * tile[ty - 1][tx] - tile[ty - 1][tx + 1];
    out[y * 128 + x] = sqrtf(gx * gx + gy * gy);
}
