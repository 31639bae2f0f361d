// Variant of mma_ldmatrix_gemm.cu: no barrier between staging the tiles and the ldmatrix reads.
// FP16 GEMM with FP32 accumulation written directly against the tensor-core PTX: shared-memory
// tiles are read into registers with ldmatrix (x4 for A, x2.trans for the k-major B tile) and
// multiplied with mma.sync.m16n8k16. C = A * B, A (M x K) and B (K x N) row-major half,
// C (M x N) row-major float. Block tile 64x64x32, 4 warps in a 2x2 grid, warp tile 32x32 =
// 2 (m16) x 4 (n8) mma tiles. Tiles are staged with plain 16-byte vector loads.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cstdio>
#include <vector>

#define BM 64
#define BN 64
#define BK 32
#define SKEW 8 // halves: rows stay 16-byte aligned, ldmatrix rows hit different banks
#define WARP_M 32
#define WARP_N 32
#define MMA_M 16
#define MMA_N 8
#define MMA_K 16
#define M_TILES (WARP_M / MMA_M) // 2
#define N_TILES (WARP_N / MMA_N) // 4
#define NUM_THREADS 128

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void *smem_row)
{
    unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(smem_row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}

__device__ __forceinline__ void ldmatrix_x2_trans(unsigned (&r)[2], const void *smem_row)
{
    unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(smem_row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(a));
}

__device__ __forceinline__ void mma_16816(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2],
                                          const float (&c)[4])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%10,%11,%12,%13};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__global__ void __launch_bounds__(NUM_THREADS)
gemm_f16_mma(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C, int M,
             int N, int K)
{
    __shared__ __align__(16) half As[BM][BK + SKEW];
    __shared__ __align__(16) half Bs[BK][BN + SKEW];

    const int tid = threadIdx.x;
    const int lane = tid % 32;
    const int warp = tid / 32;
    const int warp_m = warp / 2; // rows warp_m*32 .. +31 of the block tile
    const int warp_n = warp % 2; // columns warp_n*32 .. +31
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    float acc[M_TILES][N_TILES][4];
#pragma unroll
    for (int i = 0; i < M_TILES; ++i)
#pragma unroll
        for (int j = 0; j < N_TILES; ++j)
#pragma unroll
            for (int v = 0; v < 4; ++v)
                acc[i][j][v] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        // A tile: 64 rows x 4 chunks of 8 halves; B tile: 32 rows x 8 chunks. 2 + 2 per thread.
#pragma unroll
        for (int i = tid; i < BM * BK / 8; i += NUM_THREADS) {
            const int r = i / (BK / 8);
            const int c = (i % (BK / 8)) * 8;
            *(uint4 *)&As[r][c] = *(const uint4 *)&A[(size_t)(m0 + r) * K + k0 + c];
        }
#pragma unroll
        for (int i = tid; i < BK * BN / 8; i += NUM_THREADS) {
            const int r = i / (BN / 8);
            const int c = (i % (BN / 8)) * 8;
            *(uint4 *)&Bs[r][c] = *(const uint4 *)&B[(size_t)(k0 + r) * N + n0 + c];
        }

#pragma unroll
        for (int kk = 0; kk < BK; kk += MMA_K) {
            unsigned a_frag[M_TILES][4];
            unsigned b_frag[N_TILES][2];
#pragma unroll
            for (int i = 0; i < M_TILES; ++i)
                ldmatrix_x4(a_frag[i], &As[warp_m * WARP_M + i * MMA_M + (lane % 16)][kk + (lane / 16) * 8]);
#pragma unroll
            for (int j = 0; j < N_TILES; ++j)
                ldmatrix_x2_trans(b_frag[j], &Bs[kk + (lane % 16)][warp_n * WARP_N + j * MMA_N]);
#pragma unroll
            for (int i = 0; i < M_TILES; ++i)
#pragma unroll
                for (int j = 0; j < N_TILES; ++j)
                    mma_16816(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
        }
        __syncthreads();
    }

    // Accumulator layout of m16n8: lane holds rows lane/4 and lane/4 + 8, columns 2*(lane%4) + {0,1}.
    const int group = lane / 4;
    const int pair = (lane % 4) * 2;
#pragma unroll
    for (int i = 0; i < M_TILES; ++i) {
#pragma unroll
        for (int j = 0; j < N_TILES; ++j) {
            const int row = m0 + warp_m * WARP_M + i * MMA_M + group;
            const int col = n0 + warp_n * WARP_N + j * MMA_N + pair;
            C[(size_t)row * N + col] = acc[i][j][0];
            C[(size_t)row * N + col + 1] = acc[i][j][1];
            C[(size_t)(row + 8) * N + col] = acc[i][j][2];
            C[(size_t)(row + 8) * N + col + 1] = acc[i][j][3];
        }
    }
}

int main()
{
    const int M = 1024, N = 1024, K = 1024;
    std::vector<half> hA((size_t)M * K), hB((size_t)K * N);
    for (size_t i = 0; i < hA.size(); ++i)
        hA[i] = __float2half((float)((i * 3) % 11) / 16.0f);
    for (size_t i = 0; i < hB.size(); ++i)
        hB[i] = __float2half((float)((i * 7) % 13) / 16.0f);

    half *dA, *dB;
    float *dC;
    cudaMalloc((void **)&dA, hA.size() * sizeof(half));
    cudaMalloc((void **)&dB, hB.size() * sizeof(half));
    cudaMalloc((void **)&dC, (size_t)M * N * sizeof(float));
    cudaMemcpy(dA, hA.data(), hA.size() * sizeof(half), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, hB.data(), hB.size() * sizeof(half), cudaMemcpyHostToDevice);

    dim3 threads(NUM_THREADS);
    dim3 blocks(N / BN, M / BM);
    gemm_f16_mma<<<blocks, threads>>>(dA, dB, dC, M, N, K);
    cudaError_t st = cudaGetLastError();
    if (st == cudaSuccess)
        st = cudaDeviceSynchronize();
    if (st != cudaSuccess) {
        printf("gemm_f16_mma: %s\n", cudaGetErrorString(st));
        return 1;
    }

    float c00 = 0.0f;
    cudaMemcpy(&c00, dC, sizeof(float), cudaMemcpyDeviceToHost);
    printf("C[0][0] = %f\n", c00);

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return 0;
}
