// Out-of-place matrix transpose through a 32x33 shared tile (the extra column avoids bank
// conflicts); 32x8 threads, each moving four elements per pass.
#include <cuda_runtime.h>
#include <cstdio>

#define ROWS 4096
#define COLS 2048
#define TILE 32
#define BLOCK_ROWS 8

__global__ void transposeTile(const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float tile[TILE][TILE + 1];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    int x = blockIdx.x * TILE + tx;
    int y = blockIdx.y * TILE + ty;

    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        tile[ty + j][tx] = in[(size_t)(y + j) * COLS + x];
    __syncthreads();

    x = blockIdx.y * TILE + tx;
    y = blockIdx.x * TILE + ty;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out[(size_t)(y + j) * ROWS + x] = tile[tx][ty + j];
}

int main()
{
    float *d_in, *d_out;
    cudaMalloc(&d_in, (size_t)ROWS * COLS * sizeof(float));
    cudaMalloc(&d_out, (size_t)ROWS * COLS * sizeof(float));
    cudaMemset(d_in, 0, (size_t)ROWS * COLS * sizeof(float));
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid(COLS / TILE, ROWS / TILE);
    transposeTile<<<grid, block>>>(d_in, d_out);
    cudaDeviceSynchronize();
    printf("transpose_tile done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
