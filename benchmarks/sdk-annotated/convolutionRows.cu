//--blockDim=[16,4] --gridDim=[4,64]
// Row pass of a separable convolution (17 taps): each block stages ROWS_RESULT_STEPS * 16 pixels
// of 4 image rows plus a 16-pixel halo on each side in shared memory, then filters along the row.
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 4
#define ROWS_HALO_STEPS 1
#define ROWS_TILE_W ((ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X)
#define IMAGE_W 256
#define IMAGE_H 256
#define IMAD(a, b, c) ((a) * (b) + (c))

__constant__ float c_Kernel[KERNEL_LENGTH];

// Pixel (x, y) of the source, zero left and right of the image (the halo of the border tiles).
__device__ inline float loadOrZero(const float *src, int x, int y)
{
    if (x < 0 || x >= IMAGE_W) return 0.0f;
    return src[IMAD(y, IMAGE_W, x)];
}

__global__ void convolutionRowsKernel(float *d_Dst, const float *d_Src)
{
    __shared__ float s_Data[ROWS_BLOCKDIM_Y][ROWS_TILE_W];

    const int row = IMAD(blockIdx.y, ROWS_BLOCKDIM_Y, threadIdx.y);
    // Image column of the tile's first (halo) pixel.
    const int tileX0 = IMAD(blockIdx.x, ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X,
                            -ROWS_HALO_STEPS * ROWS_BLOCKDIM_X);

#pragma unroll
    for (int step = 0; step < ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS; step++) {
        const int col = IMAD(step, ROWS_BLOCKDIM_X, threadIdx.x);
        s_Data[threadIdx.y][col] = loadOrZero(d_Src, tileX0 + col, row);
    }

    __syncthreads();

#pragma unroll
    for (int step = ROWS_HALO_STEPS; step < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; step++) {
        const int col = IMAD(step, ROWS_BLOCKDIM_X, threadIdx.x);
        float sum = 0.0f;
#pragma unroll
        for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; k++)
            sum += c_Kernel[KERNEL_RADIUS - k] * s_Data[threadIdx.y][col + k];
        d_Dst[IMAD(row, IMAGE_W, tileX0 + col)] = sum;
    }
}
