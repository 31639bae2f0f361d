//--blockDim=[16,16] --gridDim=[8,8]
// Matrix transpose through a padded shared tile: coalesced row reads of the input tile, coalesced
// row writes of the transposed tile (the +1 column keeps the column reads conflict-free).
#define BLOCK_DIM 16
#define MATRIX_W 128
#define MATRIX_H 128
#define IMAD(a, b, c) ((a) * (b) + (c))

__global__ void transpose(float *odata, const float *idata)
{
    __shared__ float block[BLOCK_DIM][BLOCK_DIM + 1];

    unsigned int xIndex = IMAD(blockIdx.x, BLOCK_DIM, threadIdx.x);
    unsigned int yIndex = IMAD(blockIdx.y, BLOCK_DIM, threadIdx.y);
    if (xIndex < MATRIX_W && yIndex < MATRIX_H)
        block[threadIdx.y][threadIdx.x] = idata[IMAD(yIndex, MATRIX_W, xIndex)];

    __syncthreads();

    // The block's tile lands at the mirrored tile position of the output.
    xIndex = IMAD(blockIdx.y, BLOCK_DIM, threadIdx.x);
    yIndex = IMAD(blockIdx.x, BLOCK_DIM, threadIdx.y);
    if (xIndex >= MATRIX_H || yIndex >= MATRIX_W) return;
    odata[IMAD(yIndex, MATRIX_H, xIndex)] = block[threadIdx.x][threadIdx.y];
}
