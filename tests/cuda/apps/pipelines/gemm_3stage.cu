// Multistage SGEMM in the style of hand-written "ampere" kernels: a STAGES-deep ring of shared
// tiles filled with __pipeline_memcpy_async (16-byte vectors). The prologue issues STAGES-1
// tiles; every main-loop iteration waits for the oldest tile, synchronizes the block, issues the
// tile STAGES-1 ahead into the slot freed in the previous iteration, commits (an empty group
// once the matrix is exhausted) and multiplies. 64x64 block tile, BK = 16, 128 threads, each
// thread an 8x4 patch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

constexpr int BM = 64;
constexpr int BN = 64;
constexpr int BK = 16;
constexpr int TM = 8;
constexpr int TN = 4;
constexpr int THREADS = 128;
constexpr int kStages = 3;

// One tile of A (BM x BK) and one of B (BK x BN): 256 vectors of 4 floats each, two per thread.
__device__ __forceinline__ void issueTile(float (*as)[BK], float (*bs)[BN], const float *gA,
                                          const float *gB, int lda, int ldb, int tid)
{
#pragma unroll
    for (int i = 0; i < 2; ++i) {
        const int v = tid + i * THREADS;          // 0..255
        const int r = v / (BK / 4);               // 0..63
        const int c = (v % (BK / 4)) * 4;         // 0..12
        __pipeline_memcpy_async(&as[r][c], gA + r * lda + c, 16);
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) {
        const int v = tid + i * THREADS;
        const int r = v / (BN / 4);               // 0..15
        const int c = (v % (BN / 4)) * 4;         // 0..60
        __pipeline_memcpy_async(&bs[r][c], gB + r * ldb + c, 16);
    }
}

template <int STAGES>
__global__ void __launch_bounds__(THREADS)
gemmMultistage(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
               int M, int N, int K)
{
    __shared__ __align__(16) float As[STAGES][BM][BK];
    __shared__ __align__(16) float Bs[STAGES][BK][BN];

    const int tid = threadIdx.x;
    const int ty = tid / (BN / TN);   // 0..7
    const int tx = tid % (BN / TN);   // 0..15
    const float *gA = A + blockIdx.y * BM * K;
    const float *gB = B + blockIdx.x * BN;
    const int kTiles = K / BK;

    float acc[TM][TN] = {{0.0f}};

    // Prologue: STAGES-1 groups, tile s in slot s (empty groups if K is short).
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < kTiles)
            issueTile(As[s], Bs[s], gA + s * BK, gB + s * BK * N, K, N, tid);
        __pipeline_commit();
    }

    for (int kt = 0; kt < kTiles; ++kt) {
        // Groups 0..kt+STAGES-2 are committed; leaving STAGES-2 pending means tile kt landed.
        __pipeline_wait_prior(STAGES - 2);
        __syncthreads();

        const int fetch = kt + STAGES - 1;
        if (fetch < kTiles) {
            const int slot = fetch % STAGES;      // the slot computed on in iteration kt-1
            issueTile(As[slot], Bs[slot], gA + fetch * BK, gB + fetch * BK * N, K, N, tid);
        }
        __pipeline_commit();

        const int cur = kt % STAGES;
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
    }

#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            C[(blockIdx.y * BM + ty * TM + i) * N + blockIdx.x * BN + tx * TN + j] = acc[i][j];
}

static void fill(float *p, int n, float scale)
{
    for (int i = 0; i < n; ++i)
        p[i] = scale * (float)((i * 37) % 11 - 5);
}

int main(int argc, char **argv)
{
    const int M = 768, N = 512, K = 1024;
    float *hA = (float *)malloc(sizeof(float) * M * K);
    float *hB = (float *)malloc(sizeof(float) * K * N);
    float *hC = (float *)malloc(sizeof(float) * M * N);
    fill(hA, M * K, 0.125f);
    fill(hB, K * N, 0.25f);

    float *dA, *dB, *dC;
    cudaMalloc((void **)&dA, sizeof(float) * M * K);
    cudaMalloc((void **)&dB, sizeof(float) * K * N);
    cudaMalloc((void **)&dC, sizeof(float) * M * N);
    cudaMemcpy(dA, hA, sizeof(float) * M * K, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, hB, sizeof(float) * K * N, cudaMemcpyHostToDevice);

    dim3 grid(N / BN, M / BM);
    gemmMultistage<kStages><<<grid, THREADS>>>(dA, dB, dC, M, N, K);
    cudaDeviceSynchronize();
    cudaMemcpy(hC, dC, sizeof(float) * M * N, cudaMemcpyDeviceToHost);
    printf("C[17] = %f\n", hC[17]);

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(hA);
    free(hB);
    free(hC);
    return 0;
}
