// Variant of transpose_async.cu: the barrier comes before the pipeline wait, not after it.
// Coalesced matrix transpose through a padded 32x33 shared tile (SDK-sample geometry: 32x8
// threads, each moving 4 elements), the tile filled with 4-byte __pipeline_memcpy_async copies.
// width and height are multiples of TILE_DIM.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8
#define WIDTH 2048
#define HEIGHT 1024

__global__ void transposeAsync(float *odata, const float *idata, int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        __pipeline_memcpy_async(&tile[threadIdx.y + j][threadIdx.x], &idata[(y + j) * width + x],
                                sizeof(float));
    __pipeline_commit();
    __syncthreads();
    __pipeline_wait_prior(0);

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char **argv)
{
    const int size = WIDTH * HEIGHT * sizeof(float);
    float *h_idata = (float *)malloc(size);
    float *h_odata = (float *)malloc(size);
    for (int i = 0; i < WIDTH * HEIGHT; ++i)
        h_idata[i] = (float)i;

    float *d_idata, *d_odata;
    cudaMalloc((void **)&d_idata, size);
    cudaMalloc((void **)&d_odata, size);
    cudaMemcpy(d_idata, h_idata, size, cudaMemcpyHostToDevice);

    dim3 grid(WIDTH / TILE_DIM, HEIGHT / TILE_DIM);
    dim3 threads(TILE_DIM, BLOCK_ROWS);
    transposeAsync<<<grid, threads>>>(d_odata, d_idata, WIDTH, HEIGHT);
    cudaDeviceSynchronize();

    cudaMemcpy(h_odata, d_odata, size, cudaMemcpyDeviceToHost);
    int errors = 0;
    for (int r = 0; r < WIDTH; ++r)
        for (int c = 0; c < HEIGHT; ++c)
            if (h_odata[r * HEIGHT + c] != h_idata[c * WIDTH + r])
                ++errors;
    printf("%s (%d mismatches)\n", errors ? "FAILED" : "PASSED", errors);

    cudaFree(d_idata);
    cudaFree(d_odata);
    free(h_idata);
    free(h_odata);
    return errors != 0;
}
