//--blockDim=[16,16] --gridDim=[8,8]
// 2-D Jacobi smoothing on a 16x16 tile with a 1-pixel halo: the tile plus halo (18x18, clamped at
// the image border) is staged in shared memory; then `iters` in-place Jacobi sweeps replace every
// interior value by the mean of its 4 neighbours (the halo stays fixed); the interior is stored.
// Each sweep reads neighbours, waits, writes, waits. The barrier after the load is needed too:
// with iters == 0 a thread reads back a tile value loaded by another thread.
// The image size is fixed by the launch geometry: 8x8 blocks of 16x16 pixels.
#define WIDTH 128
#define HEIGHT 128
__global__ void stencil2d(float *out, const float *in, int iters)
{
    __shared__ float tile[18][18];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int x0 = (int)blockIdx.x * 16;
    int y0 = (int)blockIdx.y * 16;
    for (int k = ty * 16 + tx; k < 324; k += 256) {
        int ly = k / 18;
        int lx = k % 18;
        int gx = min(max(x0 + lx - 1, 0), WIDTH - 1);
        int gy = min(max(y0 + ly - 1, 0), HEIGHT - 1);
        tile[ly][lx] = in[gy * WIDTH + gx];
    }
    __syncthreads();
    for (int it = 0; it < iters; it++) {
        float v = 0.25f * (tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2]);
        __syncthreads();
        tile[ty + 1][tx + 1] = v;
        __syncthreads();
    }
    if (x0 + tx < WIDTH && y0 + ty < HEIGHT) {
        out[(y0 + ty) * WIDTH + x0 + tx] = tile[ty + 1][tx + 1];
    }
}
