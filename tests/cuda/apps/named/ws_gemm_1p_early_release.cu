// Variant of ws_gemm_1p.cu: the consumers release a stage right after acquiring it.
// fp32 GEMM C = A * B (row-major) with one producer warp feeding four consumer warps, the
// warp-specialized structure of Hopper kernels without TMA: the producer warp copies the A and
// B tiles of each K-step into a two-stage shared ring, the consumer warps keep a 2x4 register
// tile of C each and never touch global memory until the epilogue.
//
// Stage hand-off uses named barriers of all 160 threads (1 producer + 4 consumer warps):
//   kBarFull + s  : producer arrives when stage s holds a K-tile, consumers sync before use;
//   kBarEmpty + s : consumers arrive when they are done with stage s, the producer syncs
//                   before overwriting it.
// The K loop is unrolled by the two stages so that every barrier id is a template constant.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int BM = 32;
constexpr int BN = 32;
constexpr int BK = 16;
constexpr int kStages = 2;
constexpr int kProducerWarps = 1;
constexpr int kConsumerWarps = 4;
constexpr int kThreads = 32 * (kProducerWarps + kConsumerWarps); // 160
constexpr int M = 512;
constexpr int N = 512;
constexpr int K = 256;
constexpr int kKTiles = K / BK; // 16, a multiple of kStages

enum : int { kBarFull = 1, kBarEmpty = 1 + kStages }; // ids 1-2 and 3-4

struct NamedBarrier {
    static __device__ __forceinline__ void sync(int id, int nthreads)
    {
        asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(nthreads) : "memory");
    }
    static __device__ __forceinline__ void arrive(int id, int nthreads)
    {
        asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(nthreads) : "memory");
    }
};

struct SharedStorage {
    float a[kStages][BM][BK];
    float b[kStages][BK][BN];
};

// Producer warp: copy K-tile kt into stage STAGE once the consumers have released it.
template <int STAGE>
__device__ __forceinline__ void produce(SharedStorage &smem, const float *__restrict__ A,
                                        const float *__restrict__ B, int m0, int n0, int kt, int lane)
{
    if (kt >= kStages)
        NamedBarrier::sync(kBarEmpty + STAGE, kThreads); // tile kt - 2 consumed
    const int k0 = kt * BK;
#pragma unroll
    for (int i = 0; i < BM * BK / 32; ++i) {
        const int idx = i * 32 + lane;
        const int r = idx / BK, c = idx % BK;
        smem.a[STAGE][r][c] = A[(size_t)(m0 + r) * K + k0 + c];
    }
#pragma unroll
    for (int i = 0; i < BK * BN / 32; ++i) {
        const int idx = i * 32 + lane;
        const int r = idx / BN, c = idx % BN;
        smem.b[STAGE][r][c] = B[(size_t)(k0 + r) * N + n0 + c];
    }
    NamedBarrier::arrive(kBarFull + STAGE, kThreads);
}

// Consumer thread: rows 2*ty, 2*ty+1 and columns 4*tx .. 4*tx+3 of the block tile.
template <int STAGE>
__device__ __forceinline__ void consume(const SharedStorage &smem, float acc[2][4], int kt, int ty, int tx)
{
    NamedBarrier::sync(kBarFull + STAGE, kThreads);
    if (kt + kStages < kKTiles)
        NamedBarrier::arrive(kBarEmpty + STAGE, kThreads); // the producer will refill it
#pragma unroll
    for (int k = 0; k < BK; ++k) {
        const float a0 = smem.a[STAGE][2 * ty][k];
        const float a1 = smem.a[STAGE][2 * ty + 1][k];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const float b = smem.b[STAGE][k][4 * tx + j];
            acc[0][j] += a0 * b;
            acc[1][j] += a1 * b;
        }
    }
}

__global__ void __launch_bounds__(kThreads)
sgemm_ws_1p(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C)
{
    __shared__ SharedStorage smem;

    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int warp_id = threadIdx.x / 32;

    if (warp_id == 0) {
        const int lane = threadIdx.x % 32;
        for (int kt = 0; kt < kKTiles; kt += kStages) {
            produce<0>(smem, A, B, m0, n0, kt, lane);
            produce<1>(smem, A, B, m0, n0, kt + 1, lane);
        }
    } else {
        const int c = threadIdx.x - 32;
        const int ty = c / 8, tx = c % 8;
        float acc[2][4] = {{0.f, 0.f, 0.f, 0.f}, {0.f, 0.f, 0.f, 0.f}};
        for (int kt = 0; kt < kKTiles; kt += kStages) {
            consume<0>(smem, acc, kt, ty, tx);
            consume<1>(smem, acc, kt + 1, ty, tx);
        }
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                C[(size_t)(m0 + 2 * ty + i) * N + n0 + 4 * tx + j] = acc[i][j];
    }
}

int main()
{
    std::vector<float> hA((size_t)M * K), hB((size_t)K * N), hC((size_t)M * N);
    for (size_t i = 0; i < hA.size(); ++i)
        hA[i] = (float)((i * 13) % 7) - 3.0f;
    for (size_t i = 0; i < hB.size(); ++i)
        hB[i] = (float)((i * 5) % 11) * 0.25f;

    float *dA, *dB, *dC;
    cudaMalloc(&dA, hA.size() * sizeof(float));
    cudaMalloc(&dB, hB.size() * sizeof(float));
    cudaMalloc(&dC, hC.size() * sizeof(float));
    cudaMemcpy(dA, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice);

    dim3 grid(N / BN, M / BM);
    dim3 block(kThreads);
    sgemm_ws_1p<<<grid, block>>>(dA, dB, dC);
    cudaDeviceSynchronize();
    cudaMemcpy(hC.data(), dC, hC.size() * sizeof(float), cudaMemcpyDeviceToHost);

    double ref = 0.0;
    for (int k = 0; k < K; ++k)
        ref += (double)hA[k] * hB[(size_t)k * N];
    printf("C[0][0] = %f (reference %f)\n", hC[0], ref);

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return 0;
}
