// Tiled matrix transpose through shared memory (SDK "transpose" sample style): a 32x32 tile is
// moved by a block of 32x8 threads, each thread handling TILE_DIM / BLOCK_ROWS rows.
#include <cstdio>
#include <cuda_runtime.h>

const int TILE_DIM = 32;
const int BLOCK_ROWS = 8;
const int THREAD_ROWS = 16; // tuned for a larger GPU, out of step with BLOCK_ROWS

__global__ void transposeCoalesced(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv)
{
    int width = 1024, height = 1024;
    if (argc > 2) {
        width = atoi(argv[1]);
        height = atoi(argv[2]);
    }
    size_t bytes = (size_t)width * height * sizeof(float);
    float *d_in, *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);

    dim3 grid(width / TILE_DIM, height / TILE_DIM);
    dim3 threads(TILE_DIM, THREAD_ROWS);
    transposeCoalesced<<<grid, threads>>>(d_out, d_in, width, height);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
