#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8
#define NX 256
#define NY 256

// Coalesced transpose with a padded tile; geometry from the dim3 launch in main.
__global__ void transposeCoalesced(float *odata, const float *idata)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * NX + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * NY + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
    const dim3 grid(NX / TILE_DIM, NY / TILE_DIM);
    const dim3 block(TILE_DIM, BLOCK_ROWS);
    float *in, *out;
    cudaMalloc(&in, NX * NY * sizeof(float));
    cudaMalloc(&out, NX * NY * sizeof(float));
    transposeCoalesced<<<grid, block>>>(out, in);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
