// C = alpha * A * B + beta * C with 16x16 shared-memory tiles of A and B (row-major, square).
#include <cuda_runtime.h>
#include <cstdio>

#define DIM 1024
#define TILE 16

__global__ void sgemmTiled(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                           float alpha, float beta)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int k0 = 0; k0 < DIM; k0 += TILE) {
        As[ty][tx] = A[(size_t)row * DIM + k0 + tx];
        Bs[ty][tx] = B[(size_t)(k0 + ty) * DIM + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(size_t)row * DIM + col] = alpha * acc + beta * C[(size_t)row * DIM + col];
}

int main()
{
    float *d_a, *d_b, *d_c;
    size_t bytes = (size_t)DIM * DIM * sizeof(float);
    cudaMalloc(&d_a, bytes);
    cudaMalloc(&d_b, bytes);
    cudaMalloc(&d_c, bytes);
    cudaMemset(d_a, 0, bytes);
    cudaMemset(d_b, 0, bytes);
    cudaMemset(d_c, 0, bytes);
    dim3 block(TILE, TILE);
    dim3 grid(DIM / TILE, DIM / TILE);
    sgemmTiled<<<grid, block>>>(d_a, d_b, d_c, 1.0f, 0.0f);
    cudaDeviceSynchronize();
    printf("sgemm_tiled16 done\n");
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return 0;
}
