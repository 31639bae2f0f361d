// Variant of mma_warp_batched.cu: no __syncwarp() between staging the slices and ldmatrix.
// Batched tiny GEMMs on tensor cores, one warp per problem: C[b] = A[b] * B[b] with A[b] 16 x K,
// B[b] K x 16 (row-major half) and C[b] 16 x 16 float - e.g. per-head projections of 16 tokens.
// Each warp stages its own 16x16 slices of A and B in a private region of shared memory (one
// 16-byte chunk per lane), so warps never touch each other's data and __syncwarp() is the only
// synchronization: after staging (before ldmatrix) and after the mma (before restaging).
// A is read with ldmatrix.x4, B with ldmatrix.x4.trans (two n8 halves of the 16-wide tile).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TILE_LD (16 + 8) // halves per staged row: 16 + 8 of padding, 48 bytes

__device__ __forceinline__ void ldmatrix_a_x4(unsigned (&r)[4], const half *row_ptr)
{
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(row_ptr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

__device__ __forceinline__ void ldmatrix_b_x4_trans(unsigned (&r)[4], const half *row_ptr)
{
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(row_ptr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
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

template <int kWarps>
__global__ void __launch_bounds__(kWarps * 32)
batched_gemm_16x16(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C, int K)
{
    __shared__ __align__(16) half a_tiles[kWarps][16][TILE_LD];
    __shared__ __align__(16) half b_tiles[kWarps][16][TILE_LD];

    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const int problem = blockIdx.x * kWarps + warp;
    const half *a_g = A + (size_t)problem * 16 * K;
    const half *b_g = B + (size_t)problem * K * 16;

    // Lane l stages row l / 2, halves (l % 2) * 8 .. +7 of each 16x16 slice.
    const int sr = lane / 2;
    const int sc = (lane % 2) * 8;

    float acc0[4] = {0.0f, 0.0f, 0.0f, 0.0f}; // columns 0..7
    float acc1[4] = {0.0f, 0.0f, 0.0f, 0.0f}; // columns 8..15

    for (int k0 = 0; k0 < K; k0 += 16) {
        *reinterpret_cast<uint4 *>(&a_tiles[warp][sr][sc]) =
            *reinterpret_cast<const uint4 *>(a_g + (size_t)sr * K + k0 + sc);
        *reinterpret_cast<uint4 *>(&b_tiles[warp][sr][sc]) =
            *reinterpret_cast<const uint4 *>(b_g + (size_t)(k0 + sr) * 16 + sc);

        unsigned a_frag[4], b_frag[4];
        ldmatrix_a_x4(a_frag, &a_tiles[warp][lane % 16][(lane / 16) * 8]);
        ldmatrix_b_x4_trans(b_frag, &b_tiles[warp][lane % 16][(lane / 16) * 8]);
        const unsigned b_lo[2] = {b_frag[0], b_frag[1]};
        const unsigned b_hi[2] = {b_frag[2], b_frag[3]};
        mma_16816(acc0, a_frag, b_lo, acc0);
        mma_16816(acc1, a_frag, b_hi, acc1);
        __syncwarp();
    }

    float *c_g = C + (size_t)problem * 256;
    const int r = lane / 4;
    const int c = (lane % 4) * 2;
    c_g[r * 16 + c] = acc0[0];
    c_g[r * 16 + c + 1] = acc0[1];
    c_g[(r + 8) * 16 + c] = acc0[2];
    c_g[(r + 8) * 16 + c + 1] = acc0[3];
    c_g[r * 16 + 8 + c] = acc1[0];
    c_g[r * 16 + 8 + c + 1] = acc1[1];
    c_g[(r + 8) * 16 + 8 + c] = acc1[2];
    c_g[(r + 8) * 16 + 8 + c + 1] = acc1[3];
}

int main()
{
    constexpr int kWarps = 4;
    const int batch = 4096; // multiple of kWarps
    const int K = 256;
    std::vector<half> hA((size_t)batch * 16 * K), hB((size_t)batch * K * 16);
    for (size_t i = 0; i < hA.size(); ++i) {
        hA[i] = __float2half(0.015625f * (float)(i % 16));
        hB[i] = __float2half(0.5f);
    }

    half *dA, *dB;
    float *dC;
    cudaMalloc(&dA, hA.size() * sizeof(half));
    cudaMalloc(&dB, hB.size() * sizeof(half));
    cudaMalloc(&dC, (size_t)batch * 256 * sizeof(float));
    cudaMemcpy(dA, hA.data(), hA.size() * sizeof(half), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, hB.data(), hB.size() * sizeof(half), cudaMemcpyHostToDevice);

    batched_gemm_16x16<kWarps><<<batch / kWarps, kWarps * 32>>>(dA, dB, dC, K);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "batched_gemm_16x16: %s\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<float> hC((size_t)batch * 256);
    cudaMemcpy(hC.data(), dC, hC.size() * sizeof(float), cudaMemcpyDeviceToHost);
    printf("C[0][0][0] = %f\n", hC[0]);

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return 0;
}
