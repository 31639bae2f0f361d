// Register-blocked SGEMM: a 64x64 tile of C per block of 16x16 threads, each thread owning a 4x4
// sub-block; K is walked in slices of 16 staged in shared memory (A stored k-major).
#include <cuda_runtime.h>
#include <cstdio>

#define M 1024
#define N 1024
#define K 1024
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define THREADS 256

__global__ void sgemmRegBlocked(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int rowBase = blockIdx.y * BM;
    const int colBase = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int p = 0; p < (BM * BK) / THREADS; ++p) {
            int idx = tid + p * THREADS;
            int r = idx / BK;
            int c = idx % BK;
            As[c][r] = A[(size_t)(rowBase + r) * K + k0 + c];
        }
#pragma unroll
        for (int p = 0; p < (BK * BN) / THREADS; ++p) {
            int idx = tid + p * THREADS;
            int r = idx / BN;
            int c = idx % BN;
            Bs[r][c] = B[(size_t)(k0 + r) * N + colBase + c];
        }
        __syncthreads();

#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = As[kk][ty * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[kk][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            C[(size_t)(rowBase + ty * TM + i) * N + colBase + tx * TN + j] = acc[i][j];
}

int main()
{
    float *d_a, *d_b, *d_c;
    cudaMalloc(&d_a, (size_t)M * K * sizeof(float));
    cudaMalloc(&d_b, (size_t)K * N * sizeof(float));
    cudaMalloc(&d_c, (size_t)M * N * sizeof(float));
    cudaMemset(d_a, 0, (size_t)M * K * sizeof(float));
    cudaMemset(d_b, 0, (size_t)K * N * sizeof(float));
    dim3 block(BN / TN, BM / TM);
    dim3 grid(N / BN, M / BM);
    sgemmRegBlocked<<<grid, block>>>(d_a, d_b, d_c);
    cudaDeviceSynchronize();
    printf("sgemm_reg4x4 done\n");
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return 0;
}
