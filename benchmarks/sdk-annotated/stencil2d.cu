//--blockDim=[16,16] --gridDim=[8,8]
// iters Jacobi sweeps (5-point average) on each 16x16 tile, in place in an 18x18 shared tile whose
// one-pixel halo (clamped neighbours) stays fixed: read the neighbours, barrier, write, barrier.
#define TILE 16
#define IMAGE_W 128
#define IMAGE_H 128
#define IMAD(a, b, c) ((a) * (b) + (c))
#define S(x, y) s_tile[(y) + 1][(x) + 1]

// Pixel (x, y) with the coordinates clamped to the image.
__device__ inline float clampedLoad(const float *img, int x, int y)
{
    x = min(max(x, 0), IMAGE_W - 1);
    y = min(max(y, 0), IMAGE_H - 1);
    return img[IMAD(y, IMAGE_W, x)];
}

__global__ void jacobi2d(float *d_out, const float *d_in, int iters)
{
    __shared__ float s_tile[TILE + 2][TILE + 2];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int x = IMAD(blockIdx.x, TILE, tx);
    const int y = IMAD(blockIdx.y, TILE, ty);

    S(tx, ty) = clampedLoad(d_in, x, y);
    // Edge threads load the halo ring (the 5-point stencil never reads the corners).
    if (tx == 0) S(-1, ty) = clampedLoad(d_in, x - 1, y);
    if (tx == TILE - 1) S(TILE, ty) = clampedLoad(d_in, x + 1, y);
    if (ty == 0) S(tx, -1) = clampedLoad(d_in, x, y - 1);
    if (ty == TILE - 1) S(tx, TILE) = clampedLoad(d_in, x, y + 1);
    __syncthreads();

    for (int it = 0; it < iters; it++) {
        const float v = 0.25f * (S(tx - 1, ty) + S(tx + 1, ty) + S(tx, ty - 1) + S(tx, ty + 1));
        __syncthreads();
        S(tx, ty) = v;
        __syncthreads();
    }

    d_out[IMAD(y, IMAGE_W, x)] = S(tx, ty);
}
