// Matrix transpose through a padded shared tile (the +1 column avoids bank conflicts).
// Bug: the barrier between filling the tile and reading it transposed is missing, so a
// thread reads an element another thread of the block has not written yet.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transposeTile(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];

    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
    const int width = 1024, height = 1024;
    float *in, *out;
    cudaMalloc(&in, width * height * sizeof(float));
    cudaMalloc(&out, width * height * sizeof(float));
    dim3 block(TILE, ROWS);
    dim3 grid(width / TILE, height / TILE);
    transposeTile<<<grid, block>>>(out, in, width, height);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(in);
    cudaFree(out);
    return 0;
}
