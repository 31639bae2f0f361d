// Mirrors each 256-element tile of `data` through shared memory, scaled by the pass's factor.
// Every pass runs: the body breaks only after the last one, which the loop condition would end
// anyway — and nothing orders one pass's reads of the tile before the next pass's writes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 256

__global__ void mirror_tiles(float *data, const float *scale, int passes)
{
    __shared__ float tile[TILE];
    for (int pass = 0; pass < passes; ++pass) {
        int i = blockIdx.x * TILE + threadIdx.x;
        tile[threadIdx.x] = data[i];
        __syncthreads();
        data[i] = tile[TILE - 1 - threadIdx.x] * scale[pass];
        if (pass + 1 == passes)
            break;
    }
}

int main(int argc, char **argv)
{
    int tiles = argc > 1 ? atoi(argv[1]) : 4096;
    int passes = argc > 2 ? atoi(argv[2]) : 1;
    float *data, *scale;
    cudaMalloc(&data, (size_t)tiles * TILE * sizeof(float));
    cudaMalloc(&scale, 16 * sizeof(float));
    dim3 grid(tiles), block(TILE);
    mirror_tiles<<<grid, block>>>(data, scale, passes);
    cudaDeviceSynchronize();
    printf("mirrored %d tiles\n", tiles);
    return 0;
}
