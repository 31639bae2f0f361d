// Tiled matrix transpose in the SDK style, written with `dim3` locals: the thread's and block's
// coordinates copied whole (`dim3 t = threadIdx;`), the tile's shape built by the constructor
// (`dim3 tile(TILE, TILE);`, z defaults to 1) and the output block's origin swapped. The tile is
// staged in shared memory with a padding column. The bug: the barrier between the load and the
// store is missing, so a thread reads an element of the tile another thread has not written.
#include <cuda_runtime.h>
#include <cstdio>

#define TILE 32

__global__ void transposeTiled(float *out, const float *in, int width, int height)
{
    __shared__ float tile_s[TILE][TILE + 1];
    dim3 t = threadIdx;
    dim3 b = blockIdx;
    dim3 tile(TILE, TILE);
    dim3 src(b.x * tile.x + t.x, b.y * tile.y + t.y);
    if (src.x < width && src.y < height) {
        tile_s[t.y][t.x] = in[src.y * width + src.x];
    }
    dim3 dst(b.y * tile.y + t.x, b.x * tile.x + t.y);
    if (dst.x < height && dst.y < width) {
        out[dst.y * height + dst.x] = tile_s[t.x][t.y];
    }
}

int main()
{
    const int width = 2048, height = 1024;
    float *in, *out;
    cudaMalloc(&in, width * height * sizeof(float));
    cudaMalloc(&out, width * height * sizeof(float));
    dim3 threads(TILE, TILE);
    dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    transposeTiled<<<grid, threads>>>(out, in, width, height);
    cudaDeviceSynchronize();
    printf("transposed\n");
    return 0;
}
