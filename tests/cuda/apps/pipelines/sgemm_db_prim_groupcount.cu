// Variant of sgemm_db_prim.cu: a group is committed only when a next tile exists.
// Textbook tiled SGEMM (one C element per thread, 16x16 tiles), double-buffered with the
// primitive asynchronous-copy API of <cuda_pipeline.h>: the copy of tile t+1 is in flight
// while tile t is multiplied. C = A * B, row-major, A is M x K, B is K x N.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

#define TILE 16
#define M_SIZE 512
#define N_SIZE 512
#define K_SIZE 1024

__global__ void sgemmDoubleBuffer(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    const int numTiles = K / TILE;

    // Prologue: tile 0 into stage 0 (group 0).
    __pipeline_memcpy_async(&As[0][ty][tx], &A[row * K + tx], sizeof(float));
    __pipeline_memcpy_async(&Bs[0][ty][tx], &B[ty * N + col], sizeof(float));
    __pipeline_commit();

    float acc = 0.0f;
    for (int t = 0; t < numTiles; ++t) {
        const int cur = t & 1;
        const int nxt = cur ^ 1;
        if (t + 1 < numTiles) {
            const int k0 = (t + 1) * TILE;
            __pipeline_memcpy_async(&As[nxt][ty][tx], &A[row * K + k0 + tx], sizeof(float));
            __pipeline_memcpy_async(&Bs[nxt][ty][tx], &B[(k0 + ty) * N + col], sizeof(float));
            __pipeline_commit();
        }
        __pipeline_wait_prior(1); // leave the prefetch of the next tile in flight
        __syncthreads();          // ... for every thread of the block

#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[cur][ty][k] * Bs[cur][k][tx];

        __syncthreads();          // stage `cur` is refilled by the next iteration's copy
    }
    C[row * N + col] = acc;
}

int main()
{
    const int M = M_SIZE, N = N_SIZE, K = K_SIZE;
    float *hA = (float *)malloc(M * K * sizeof(float));
    float *hB = (float *)malloc(K * N * sizeof(float));
    float *hC = (float *)malloc(M * N * sizeof(float));
    for (int i = 0; i < M * K; ++i) hA[i] = (float)(i % 7) * 0.25f;
    for (int i = 0; i < K * N; ++i) hB[i] = (float)(i % 5) * 0.5f;

    float *dA, *dB, *dC;
    cudaMalloc((void **)&dA, M * K * sizeof(float));
    cudaMalloc((void **)&dB, K * N * sizeof(float));
    cudaMalloc((void **)&dC, M * N * sizeof(float));
    cudaMemcpy(dA, hA, M * K * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, hB, K * N * sizeof(float), cudaMemcpyHostToDevice);

    dim3 threads(TILE, TILE);
    dim3 grid(N / TILE, M / TILE);
    sgemmDoubleBuffer<<<grid, threads>>>(dA, dB, dC, M, N, K);
    cudaDeviceSynchronize();

    cudaMemcpy(hC, dC, M * N * sizeof(float), cudaMemcpyDeviceToHost);
    printf("C[0] = %f, C[last] = %f\n", hC[0], hC[M * N - 1]);

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(hA);
    free(hB);
    free(hC);
    return 0;
}
