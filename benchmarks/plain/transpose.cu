//--blockDim=[16,16] --gridDim=[8,8]
// Tiled matrix transpose: odata (width x height) = transpose of idata (height x width, row-major).
// A 16x16 tile is read with coalesced rows into a padded [16][17] shared tile (the padding column
// avoids bank conflicts), and written back transposed, again with coalesced rows.
__global__ void transpose(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[16][17];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int xIn = (int)blockIdx.x * 16 + tx;
    int yIn = (int)blockIdx.y * 16 + ty;
    if (xIn < width && yIn < height) {
        tile[ty][tx] = idata[yIn * width + xIn];
    }
    __syncthreads();
    int xOut = (int)blockIdx.y * 16 + tx;
    int yOut = (int)blockIdx.x * 16 + ty;
    if (xOut < height && yOut < width) {
        odata[yOut * height + xOut] = tile[tx][ty];
    }
}
