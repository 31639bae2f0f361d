// Variant of mma_ldmatrix_cpasync.cu: the next stage's copies are issued before the K-step's
// barrier instead of after it.
// "NT" FP16 GEMM, C = A * Bt^T (A: M x K, Bt: N x K, both row-major half; C: M x N float), the
// layout of a linear layer's weights. Tiles of A and Bt are fetched into a two-stage
// shared-memory ring with cp.async (16 bytes per copy, inline PTX) while the tensor cores work
// on the other stage: ldmatrix.x4 for A, ldmatrix.x2 for Bt (already k-contiguous, no .trans),
// mma.sync.m16n8k16. One barrier per K-step: after waiting for its own copies of the current
// stage, every thread passes the barrier, and only then refills the other stage, which all
// threads finished reading before they reached that barrier.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kBM = 64;
constexpr int kBN = 64;
constexpr int kBK = 32;
constexpr int kPad = 8; // halves
constexpr int kLd = kBK + kPad;
constexpr int kStages = 2;
constexpr int kThreads = 128;
constexpr int kWarpM = 32;
constexpr int kWarpN = 32;

__device__ __forceinline__ void cp_async_16(void *smem, const void *gmem)
{
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }

__device__ __forceinline__ void cp_async_wait_all_groups() { asm volatile("cp.async.wait_group 0;\n" ::); }

__device__ __forceinline__ void ldsm_x4(unsigned (&r)[4], const void *smem_row)
{
    unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(smem_row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}

__device__ __forceinline__ void ldsm_x2(unsigned (&r)[2], const void *smem_row)
{
    unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(smem_row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(a));
}

__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2],
                                             const float (&c)[4])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%10,%11,%12,%13};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__global__ void __launch_bounds__(kThreads)
gemm_nt_cpasync_mma(const half *__restrict__ A, const half *__restrict__ Bt, float *__restrict__ C,
                    int M, int N, int K)
{
    __shared__ __align__(128) half sA[kStages][kBM][kLd];
    __shared__ __align__(128) half sB[kStages][kBN][kLd];

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int wm = (warp >> 1) * kWarpM;
    const int wn = (warp & 1) * kWarpN;
    const half *gA = A + (size_t)blockIdx.y * kBM * K;
    const half *gB = Bt + (size_t)blockIdx.x * kBN * K;
    const int num_k_tiles = K / kBK;

    // Each thread always copies the same two 16-byte chunks of each tile: rows ld_row and
    // ld_row + 32, halves ld_col .. ld_col + 7.
    const int ld_row = tid / (kBK / 8);      // 0..31
    const int ld_col = (tid % (kBK / 8)) * 8; // 0, 8, 16, 24

    float acc[2][4][4] = {};

    auto load_stage = [&](int stage, int kt) {
        const int k0 = kt * kBK;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int r = ld_row + h * 32;
            cp_async_16(&sA[stage][r][ld_col], gA + (size_t)r * K + k0 + ld_col);
            cp_async_16(&sB[stage][r][ld_col], gB + (size_t)r * K + k0 + ld_col);
        }
    };

    load_stage(0, 0);
    cp_async_commit();

    for (int kt = 0; kt < num_k_tiles; ++kt) {
        const int cur = kt & 1;
        cp_async_wait_all_groups();
        if (kt + 1 < num_k_tiles) {
            load_stage(cur ^ 1, kt + 1);
            cp_async_commit();
        }
        __syncthreads();

#pragma unroll
        for (int kk = 0; kk < kBK; kk += 16) {
            unsigned a[2][4];
            unsigned b[4][2];
#pragma unroll
            for (int i = 0; i < 2; ++i)
                ldsm_x4(a[i], &sA[cur][wm + i * 16 + (lane % 16)][kk + (lane / 16) * 8]);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                ldsm_x2(b[j], &sB[cur][wn + j * 8 + (lane % 8)][kk + ((lane / 8) % 2) * 8]);
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    mma_m16n8k16(acc[i][j], a[i], b[j], acc[i][j]);
        }
    }

    const int r_in = lane >> 2;
    const int c_in = (lane & 3) * 2;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int row = blockIdx.y * kBM + wm + i * 16 + r_in;
            const int col = blockIdx.x * kBN + wn + j * 8 + c_in;
            *reinterpret_cast<float2 *>(&C[(size_t)row * N + col]) =
                make_float2(acc[i][j][0], acc[i][j][1]);
            *reinterpret_cast<float2 *>(&C[(size_t)(row + 8) * N + col]) =
                make_float2(acc[i][j][2], acc[i][j][3]);
        }
    }
}

int main(int argc, char **argv)
{
    const int M = 2048, N = 1024, K = 4096;
    std::vector<half> hA((size_t)M * K), hB((size_t)N * K);
    for (size_t i = 0; i < hA.size(); ++i)
        hA[i] = __float2half((float)(i % 9) * 0.0625f);
    for (size_t i = 0; i < hB.size(); ++i)
        hB[i] = __float2half((float)(i % 7) * -0.03125f);

    half *dA = nullptr, *dB = nullptr;
    float *dC = nullptr;
    cudaMalloc(&dA, hA.size() * sizeof(half));
    cudaMalloc(&dB, hB.size() * sizeof(half));
    cudaMalloc(&dC, (size_t)M * N * sizeof(float));
    cudaMemcpy(dA, hA.data(), hA.size() * sizeof(half), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, hB.data(), hB.size() * sizeof(half), cudaMemcpyHostToDevice);

    dim3 grid(N / kBN, M / kBM);
    gemm_nt_cpasync_mma<<<grid, kThreads>>>(dA, dB, dC, M, N, K);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "gemm_nt_cpasync_mma: %s\n", cudaGetErrorString(err));
        return EXIT_FAILURE;
    }

    std::vector<float> hC((size_t)M * N);
    cudaMemcpy(hC.data(), dC, hC.size() * sizeof(float), cudaMemcpyDeviceToHost);
    double checksum = 0.0;
    for (size_t i = 0; i < hC.size(); i += 4099)
        checksum += hC[i];
    printf("checksum %f\n", checksum);

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return 0;
}
