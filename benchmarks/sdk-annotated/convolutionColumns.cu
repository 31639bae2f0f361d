//--blockDim=[16,8] --gridDim=[8,8]
// Column pass of a separable convolution (17 taps): each block stages 16 image columns of
// COLUMNS_RESULT_STEPS * 8 rows plus an 8-row halo above and below in shared memory (stored
// transposed, padded by one), then filters along the column.
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 4
#define COLUMNS_HALO_STEPS 1
#define COLUMNS_TILE_H ((COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y)
#define IMAGE_W 128
#define IMAGE_H 256
#define IMAD(a, b, c) ((a) * (b) + (c))

__constant__ float c_Kernel[KERNEL_LENGTH];

// Pixel (x, y) of the source, zero above and below the image (the halo of the border tiles).
__device__ inline float loadOrZero(const float *src, int x, int y)
{
    if (y < 0 || y >= IMAGE_H) return 0.0f;
    return src[IMAD(y, IMAGE_W, x)];
}

__global__ void convolutionColumnsKernel(float *d_Dst, const float *d_Src)
{
    __shared__ float s_Data[COLUMNS_BLOCKDIM_X][COLUMNS_TILE_H + 1];

    const int x = IMAD(blockIdx.x, COLUMNS_BLOCKDIM_X, threadIdx.x);
    // Image row of the tile's first (halo) row.
    const int tileY0 = IMAD(blockIdx.y, COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y,
                            -COLUMNS_HALO_STEPS * COLUMNS_BLOCKDIM_Y);

#pragma unroll
    for (int step = 0; step < COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS; step++) {
        const int ty = IMAD(step, COLUMNS_BLOCKDIM_Y, threadIdx.y);
        s_Data[threadIdx.x][ty] = loadOrZero(d_Src, x, tileY0 + ty);
    }

    __syncthreads();

#pragma unroll
    for (int step = COLUMNS_HALO_STEPS; step < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; step++) {
        const int ty = IMAD(step, COLUMNS_BLOCKDIM_Y, threadIdx.y);
        float sum = 0.0f;
#pragma unroll
        for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; k++)
            sum += c_Kernel[KERNEL_RADIUS - k] * s_Data[threadIdx.x][ty + k];
        d_Dst[IMAD(tileY0 + ty, IMAGE_W, x)] = sum;
    }
}
