// Register-blocked matrix multiply in textbook style: each thread computes a column strip of
// four outputs kept in a thread-local array `acc[4]`; the A and B tiles are staged in shared
// memory with a barrier after each load. The bug: no barrier after the tile is used, so the
// next iteration's loads overwrite As and Bs while slower threads still read them.
#include <cuda_runtime.h>

#define N 1024
#define TILE 16
#define RB 4

__global__ void gemmRegisterBlocked(const float *A, const float *B, float *C)
{
    __shared__ float As[TILE * RB][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row0 = blockIdx.y * TILE * RB + ty * RB;
    float acc[RB];
    for (int r = 0; r < RB; ++r)
        acc[r] = 0.0f;
    for (int t = 0; t < N / TILE; ++t) {
        for (int r = 0; r < RB; ++r)
            As[ty * RB + r][tx] = A[(row0 + r) * N + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            float b = Bs[k][tx];
            for (int r = 0; r < RB; ++r)
                acc[r] += As[ty * RB + r][k] * b;
        }
    }
    for (int r = 0; r < RB; ++r)
        C[(row0 + r) * N + col] = acc[r];
}

int main()
{
    float *A, *B, *C;
    cudaMalloc(&A, N * N * sizeof(float));
    cudaMalloc(&B, N * N * sizeof(float));
    cudaMalloc(&C, N * N * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid(N / TILE, N / (TILE * RB));
    gemmRegisterBlocked<<<grid, block>>>(A, B, C);
    cudaDeviceSynchronize();
    return 0;
}
