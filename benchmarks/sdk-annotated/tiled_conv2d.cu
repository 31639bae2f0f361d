//--blockDim=[16,16] --gridDim=[8,8]
// 2-D 5x5 convolution: the block cooperatively stages its 16x16 tile plus a 2-pixel apron
// (20x20, clamped at the border) in shared memory, then each thread filters one pixel.
#define MASK_RADIUS 2
#define MASK_WIDTH (2 * MASK_RADIUS + 1)
#define TILE_W 16
#define SHARED_W (TILE_W + 2 * MASK_RADIUS)
#define IMAGE_W 128
#define IMAGE_H 128
#define IMAD(a, b, c) ((a) * (b) + (c))

__constant__ float c_Mask[MASK_WIDTH * MASK_WIDTH];

__device__ inline int clampi(int v, int lo, int hi)
{
    return min(max(v, lo), hi);
}

__global__ void convolution2D(float *d_out, const float *d_in)
{
    __shared__ float s_in[SHARED_W][SHARED_W];

    const int tid = IMAD(threadIdx.y, TILE_W, threadIdx.x);
    const int x0 = IMAD(blockIdx.x, TILE_W, -MASK_RADIUS);
    const int y0 = IMAD(blockIdx.y, TILE_W, -MASK_RADIUS);

    for (int idx = tid; idx < SHARED_W * SHARED_W; idx += TILE_W * TILE_W) {
        const int sy = idx / SHARED_W;
        const int sx = idx % SHARED_W;
        s_in[sy][sx] = d_in[IMAD(clampi(y0 + sy, 0, IMAGE_H - 1), IMAGE_W, clampi(x0 + sx, 0, IMAGE_W - 1))];
    }

    __syncthreads();

    const int x = IMAD(blockIdx.x, TILE_W, threadIdx.x);
    const int y = IMAD(blockIdx.y, TILE_W, threadIdx.y);
    if (x >= IMAGE_W || y >= IMAGE_H) return;

    float sum = 0.0f;
#pragma unroll
    for (int my = 0; my < MASK_WIDTH; my++)
#pragma unroll
        for (int mx = 0; mx < MASK_WIDTH; mx++)
            sum += c_Mask[IMAD(my, MASK_WIDTH, mx)] * s_in[threadIdx.y + my][threadIdx.x + mx];
    d_out[IMAD(y, IMAGE_W, x)] = sum;
}
