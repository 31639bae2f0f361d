// GEMM epilogue: out^T = GELU(acc + bias), staged through a 32x33 shared tile so both the read of
// the accumulator and the transposed store are coalesced. The bias slice of the tile is loaded
// once into shared memory by the first row of threads.
#include <cuda_runtime.h>
#include <cstdio>

#define M 2048
#define N 4096
#define TILE 32
#define ROWS_PER_PASS 8

__device__ __forceinline__ float gelu(float v)
{
    const float k = 0.7978845608f; // sqrt(2/pi)
    return 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v)));
}

__global__ void geluBiasTransposed(const float *__restrict__ acc, const float *__restrict__ bias,
                                   float *__restrict__ outT)
{
    __shared__ float sBias[TILE];
    __shared__ float tile[TILE][TILE + 1];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int col0 = blockIdx.x * TILE;
    const int row0 = blockIdx.y * TILE;

    if (ty == 0)
        sBias[tx] = bias[col0 + tx];
    __syncthreads();

    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int r = row0 + ty + j;
        tile[ty + j][tx] = gelu(acc[(size_t)r * N + col0 + tx] + sBias[tx]);
    }
    __syncthreads();

    for (int j = 0; j < TILE; j += ROWS_PER_PASS) {
        int c = col0 + ty + j;
        outT[(size_t)c * M + row0 + tx] = tile[tx][ty + j];
    }
}

int main()
{
    float *d_acc, *d_bias, *d_out;
    cudaMalloc(&d_acc, (size_t)M * N * sizeof(float));
    cudaMalloc(&d_out, (size_t)M * N * sizeof(float));
    cudaMalloc(&d_bias, N * sizeof(float));
    cudaMemset(d_acc, 0, (size_t)M * N * sizeof(float));
    cudaMemset(d_bias, 0, N * sizeof(float));
    dim3 block(TILE, ROWS_PER_PASS);
    dim3 grid(N / TILE, M / TILE);
    geluBiasTransposed<<<grid, block>>>(d_acc, d_bias, d_out);
    cudaDeviceSynchronize();
    printf("gelu_bias_epilogue done\n");
    cudaFree(d_acc);
    cudaFree(d_bias);
    cudaFree(d_out);
    return 0;
}
