// Four-stage cp.async SGEMM, benchmark-suite style: PTX wrapped in macros, the shared ring as an
// array of stage structs, the stage count a template parameter. 32x32 block tile, BK = 32,
// 128 threads, each computing 2 rows x 4 columns. Loop invariant: when iteration kt starts,
// groups 0..kt+STAGES-2 are committed and group g carries tile g (or nothing).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CP_ASYNC_CG16(dst, src)                                                               \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(                        \
                     static_cast<unsigned>(__cvta_generic_to_shared(dst))),                   \
                 "l"(src))
#define CP_ASYNC_COMMIT() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))

constexpr int BLK_M = 32;
constexpr int BLK_N = 32;
constexpr int BLK_K = 32;
constexpr int NUM_THREADS = 128;
constexpr int ROWS_PER_THREAD = 2;
constexpr int COLS_PER_THREAD = 4;

struct __align__(16) StageTile {
    float a[BLK_M][BLK_K];
    float b[BLK_K][BLK_N];
};

// 32x32 floats = 256 vectors of 16 bytes per operand: two per thread.
__device__ __forceinline__ void loadStage(StageTile &st, const float *gA, const float *gB,
                                          int lda, int ldb, int tid)
{
#pragma unroll
    for (int i = 0; i < 2; ++i) {
        const int v = tid + i * NUM_THREADS;   // 0..255
        const int r = v / (BLK_K / 4);         // 0..31
        const int c = (v % (BLK_K / 4)) * 4;   // 0..28
        CP_ASYNC_CG16(&st.a[r][c], gA + r * lda + c);
        CP_ASYNC_CG16(&st.b[r][c], gB + r * ldb + c);
    }
}

template <int STAGES>
__global__ void __launch_bounds__(NUM_THREADS)
sgemmPipelined(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ StageTile ring[STAGES];

    const int tid = threadIdx.x;
    const int rowBase = (tid / (BLK_N / COLS_PER_THREAD)) * ROWS_PER_THREAD;  // 0..30
    const int colBase = (tid % (BLK_N / COLS_PER_THREAD)) * COLS_PER_THREAD;  // 0..28
    const float *gA = A + blockIdx.y * BLK_M * K;
    const float *gB = B + blockIdx.x * BLK_N;
    const int numK = K / BLK_K;

    float acc[ROWS_PER_THREAD][COLS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ROWS_PER_THREAD; ++i)
#pragma unroll
        for (int j = 0; j < COLS_PER_THREAD; ++j)
            acc[i][j] = 0.0f;

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < numK)
            loadStage(ring[s], gA + s * BLK_K, gB + s * BLK_K * N, K, N, tid);
        CP_ASYNC_COMMIT();
    }

    for (int kt = 0; kt < numK; ++kt) {
        CP_ASYNC_WAIT(STAGES - 2);   // tile kt has landed (for this thread's copies)
        __syncthreads();             // ... and for everyone's; slot (kt-1) % STAGES is free

        const int pre = kt + STAGES - 1;
        if (pre < numK)
            loadStage(ring[pre % STAGES], gA + pre * BLK_K, gB + pre * BLK_K * N, K, N, tid);
        CP_ASYNC_COMMIT();

        const StageTile &st = ring[kt % STAGES];
#pragma unroll 8
        for (int k = 0; k < BLK_K; ++k) {
            const float a0 = st.a[rowBase][k];
            const float a1 = st.a[rowBase + 1][k];
#pragma unroll
            for (int j = 0; j < COLS_PER_THREAD; ++j) {
                const float b = st.b[k][colBase + j];
                acc[0][j] += a0 * b;
                acc[1][j] += a1 * b;
            }
        }
    }

#pragma unroll
    for (int i = 0; i < ROWS_PER_THREAD; ++i)
#pragma unroll
        for (int j = 0; j < COLS_PER_THREAD; ++j)
            C[(blockIdx.y * BLK_M + rowBase + i) * N + blockIdx.x * BLK_N + colBase + j] = acc[i][j];
}

#define CHECK(call)                                                                           \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));      \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

int main()
{
    const int M = 2048, N = 2048, K = 2048;
    const size_t bytesA = sizeof(float) * M * K, bytesB = sizeof(float) * K * N,
                 bytesC = sizeof(float) * M * N;
    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, bytesA));
    CHECK(cudaMalloc(&dB, bytesB));
    CHECK(cudaMalloc(&dC, bytesC));
    CHECK(cudaMemset(dA, 0, bytesA));
    CHECK(cudaMemset(dB, 0, bytesB));

    const dim3 block(NUM_THREADS);
    const dim3 grid(N / BLK_N, M / BLK_M);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    sgemmPipelined<4><<<grid, block>>>(dA, dB, dC, M, N, K);
    cudaEventRecord(stop);
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    printf("4-stage sgemm: %.3f ms, %.1f GFLOP/s\n", ms, 2.0 * M * N * K / (ms * 1e6));

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return 0;
}
