//--blockDim=[16,16] --gridDim=[8,8]
// Tiled matrix transpose: odata (WIDTH x HEIGHT) = transpose of idata (HEIGHT x WIDTH, row-major).
// A 16x16 tile is read with coalesced rows into a padded [16][17] shared tile (the padding column
// avoids bank conflicts), and written back transposed, again with coalesced rows.
// The matrix size is fixed by the launch geometry: 8x8 blocks of 16x16 elements.
#define WIDTH 128
#define HEIGHT 128
__global__ void transpose(float *odata, const float *idata)
{
    __shared__ float tile[16][17];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int xIn = (int)blockIdx.x * 16 + tx;
    int yIn = (int)blockIdx.y * 16 + ty;
    if (xIn < WIDTH && yIn < HEIGHT) {
        tile[ty][tx] = idata[yIn * WIDTH + xIn];
    }
    __syncthreads();
    int xOut = (int)blockIdx.y * 16 + tx;
    int yOut = (int)blockIdx.x * 16 + ty;
    if (xOut < HEIGHT && yOut < WIDTH) {
        odata[yOut * HEIGHT + xOut] = tile[tx][ty];
    }
}
