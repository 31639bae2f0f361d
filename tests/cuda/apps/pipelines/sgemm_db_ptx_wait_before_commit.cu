// Variant of sgemm_db_ptx.cu: the wait comes first in the loop body and the next tile's
// group is committed (only when there is a next tile) after the barrier.
// Register-blocked SGEMM, 64x64 block tile, BK = 16, 256 threads each computing a 4x4 patch,
// with a two-stage cp.async pipeline written as inline PTX (no CUTLASS).
// C = alpha * A * B + beta * C, row-major; M, N multiples of 64 and K a multiple of 16.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define NTHREADS 256

__device__ __forceinline__ void cp_async_cg16(void *smem_ptr, const void *gmem_ptr)
{
    const unsigned saddr = static_cast<unsigned>(__cvta_generic_to_shared(smem_ptr));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr), "l"(gmem_ptr));
}

__device__ __forceinline__ void cp_async_commit_group()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void cp_async_wait_group()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__global__ void __launch_bounds__(NTHREADS)
sgemm64x64CpAsync(int M, int N, int K, float alpha, const float *__restrict__ A,
                  const float *__restrict__ B, float beta, float *__restrict__ C)
{
    __shared__ __align__(16) float As[2][BM][BK];
    __shared__ __align__(16) float Bs[2][BK][BN];

    const int tid = threadIdx.x;
    // Loader coordinates: one 16-byte vector of A and one of B per thread and tile.
    const int aRow = tid / (BK / 4);        // 0..63
    const int aCol = (tid % (BK / 4)) * 4;  // 0, 4, 8, 12
    const int bRow = tid / (BN / 4);        // 0..15
    const int bCol = (tid % (BN / 4)) * 4;  // 0..60
    // Compute coordinates: a 4x4 patch of the 64x64 tile.
    const int ty = tid / (BN / TN);         // 0..15
    const int tx = tid % (BN / TN);         // 0..15

    const float *Ablk = A + blockIdx.y * BM * K;
    const float *Bblk = B + blockIdx.x * BN;
    const int kTiles = K / BK;

    float acc[TM][TN] = {{0.0f}};

    cp_async_cg16(&As[0][aRow][aCol], Ablk + aRow * K + aCol);
    cp_async_cg16(&Bs[0][bRow][bCol], Bblk + bRow * N + bCol);
    cp_async_commit_group();

    for (int kt = 0; kt < kTiles; ++kt) {
        const int cur = kt % 2;
        cp_async_wait_group<1>();   // keep one group in flight
        __syncthreads();
        if (kt + 1 < kTiles) {
            const int k0 = (kt + 1) * BK;
            cp_async_cg16(&As[cur ^ 1][aRow][aCol], Ablk + aRow * K + k0 + aCol);
            cp_async_cg16(&Bs[cur ^ 1][bRow][bCol], Bblk + (k0 + bRow) * N + bCol);
            cp_async_commit_group();
        }

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = As[cur][ty * TM + i][k];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[cur][k][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = blockIdx.y * BM + ty * TM + i;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int c = blockIdx.x * BN + tx * TN + j;
            C[r * N + c] = alpha * acc[i][j] + beta * C[r * N + c];
        }
    }
}

int main()
{
    const int M = 1024, N = 1024, K = 512;
    std::vector<float> hA(M * K, 1.0f), hB(K * N, 0.5f), hC(M * N, 0.0f);

    float *dA = nullptr, *dB = nullptr, *dC = nullptr;
    cudaMalloc(&dA, sizeof(float) * M * K);
    cudaMalloc(&dB, sizeof(float) * K * N);
    cudaMalloc(&dC, sizeof(float) * M * N);
    cudaMemcpy(dA, hA.data(), sizeof(float) * M * K, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, hB.data(), sizeof(float) * K * N, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, hC.data(), sizeof(float) * M * N, cudaMemcpyHostToDevice);

    dim3 block(NTHREADS);
    dim3 grid(N / BN, M / BM);
    sgemm64x64CpAsync<<<grid, block>>>(M, N, K, 1.0f, dA, dB, 0.0f, dC);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(hC.data(), dC, sizeof(float) * M * N, cudaMemcpyDeviceToHost);
    printf("C[0][0] = %.1f (expected %.1f)\n", hC[0], 0.5f * K);

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return 0;
}
