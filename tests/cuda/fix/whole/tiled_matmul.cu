// C = A * B for square matrices, 16x16 tiles staged in shared memory (the textbook kernel),
// with both barriers of the tile loop missing.
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

__global__ void matMulTiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;

    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
    }
    C[row * n + col] = acc;
}

int main()
{
    const int n = 1024;
    size_t bytes = n * n * sizeof(float);
    float *A, *B, *C;
    cudaMalloc(&A, bytes);
    cudaMalloc(&B, bytes);
    cudaMalloc(&C, bytes);
    dim3 threads(TILE, TILE);
    dim3 blocks(n / TILE, n / TILE);
    matMulTiled<<<blocks, threads>>>(A, B, C, n);
    cudaDeviceSynchronize();
    return 0;
}
