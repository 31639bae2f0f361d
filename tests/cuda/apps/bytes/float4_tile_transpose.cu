// Matrix transpose (SDK style): a 32 x 32 block of the input is read with coalesced scalar
// loads and stored transposed into a shared tile; after the barrier the tile's rows are written
// out with 128-bit stores, each row viewed as eight float4 words.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_vec4(const float *idata, float *odata, int n)
{
    __shared__ __align__(16) float tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.x][threadIdx.y + j] = idata[(y + j) * n + x];
    __syncthreads();
    int id = threadIdx.y * TILE_DIM + threadIdx.x;   // 0..255
    int r = id / (TILE_DIM / 4);                      // tile row 0..31
    int c4 = id % (TILE_DIM / 4);                     // float4 column 0..7
    float4 v = reinterpret_cast<float4 *>(&tile[r][0])[c4];
    float *dst = &odata[(blockIdx.x * TILE_DIM + r) * n + blockIdx.y * TILE_DIM + 4 * c4];
    *reinterpret_cast<float4 *>(dst) = v;
}

int main()
{
    const int n = 2048;
    const size_t bytes = (size_t)n * n * sizeof(float);
    float *d_in, *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    cudaMemset(d_in, 0, bytes);
    dim3 grid(n / TILE_DIM, n / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
    transpose_vec4<<<grid, threads>>>(d_in, d_out, n);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
