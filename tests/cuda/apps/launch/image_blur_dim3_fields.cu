// Box blur of a grayscale image with a shared tile (textbook style); the host fills the dim3
// fields one by one, as many codes do after reading a tuning table.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_W 16
#define TILE_H 16

__global__ void blur3x3(const float *in, float *out, int w, int h)
{
    __shared__ float tile[TILE_H][TILE_W];
    int x = blockIdx.x * TILE_W + threadIdx.x;
    int y = blockIdx.y * TILE_H + threadIdx.y;
    float v = 0.0f;
    if (x < w && y < h)
        v = in[y * w + x];
    tile[threadIdx.y][threadIdx.x] = v;
    __syncthreads();
    if (threadIdx.x > 0 && threadIdx.x < TILE_W - 1 && threadIdx.y > 0 && threadIdx.y < TILE_H - 1 &&
        x < w && y < h) {
        float s = 0.0f;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                s += tile[threadIdx.y + dy][threadIdx.x + dx];
        out[y * w + x] = s / 9.0f;
    }
}

int main(int argc, char **argv)
{
    int w = 1920, h = 1080;
    if (argc == 3) {
        w = atoi(argv[1]);
        h = atoi(argv[2]);
    }
    float *d_in, *d_out;
    cudaMalloc(&d_in, w * h * sizeof(float));
    cudaMalloc(&d_out, w * h * sizeof(float));

    dim3 block;
    block.x = TILE_W;
    block.y = TILE_H;
    dim3 grid;
    grid.x = (w + block.x - 1) / block.x;
    grid.y = (h + block.y - 1) / block.y;
    blur3x3<<<grid, block>>>(d_in, d_out, w, h);
    cudaDeviceSynchronize();
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
