// Variant of wmma_hgemm_smem.cu: no barrier at the end of the K-loop body.
// Half-precision GEMM on tensor cores through the WMMA API: C = A * B, A (M x K) and B (K x N)
// row-major half, C (M x N) row-major float. A block of 4 warps computes a 32x32 tile of C, each
// warp one 16x16 accumulator fragment. Every K-step the block stages a 32x32 tile of A and of B
// in shared memory with plain loads, synchronizes, and each warp runs two 16x16x16 mma_sync
// steps on fragments loaded from its rows of As and its columns of Bs.
#include <cuda_runtime.h>
#include <mma.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16
#define BLOCK_M 32
#define BLOCK_N 32
#define BLOCK_K 32
#define SKEW_HALF 8 // keeps ldm a multiple of 8 halves and staggers banks
#define WARPS_PER_BLOCK 4
#define THREADS_PER_BLOCK (WARPS_PER_BLOCK * 32)

__global__ void __launch_bounds__(THREADS_PER_BLOCK)
hgemm_wmma_smem(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C,
                int M, int N, int K)
{
    __shared__ __align__(32) half As[BLOCK_M][BLOCK_K + SKEW_HALF];
    __shared__ __align__(32) half Bs[BLOCK_K][BLOCK_N + SKEW_HALF];

    const int tid = threadIdx.x;
    const int warp_id = tid / 32;
    const int warp_row = warp_id / 2; // 0..1: which 16-row half of the block tile
    const int warp_col = warp_id % 2; // 0..1: which 16-column half
    const int block_row = blockIdx.y * BLOCK_M;
    const int block_col = blockIdx.x * BLOCK_N;

    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> b_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
    wmma::fill_fragment(acc_frag, 0.0f);

    for (int k0 = 0; k0 < K; k0 += BLOCK_K) {
        // Stage the A tile (rows block_row.., columns k0..) and the B tile (rows k0.., columns
        // block_col..): 1024 halves each, 8 per thread.
        for (int i = tid; i < BLOCK_M * BLOCK_K; i += THREADS_PER_BLOCK) {
            const int r = i / BLOCK_K;
            const int c = i % BLOCK_K;
            As[r][c] = A[(size_t)(block_row + r) * K + k0 + c];
        }
        for (int i = tid; i < BLOCK_K * BLOCK_N; i += THREADS_PER_BLOCK) {
            const int r = i / BLOCK_N;
            const int c = i % BLOCK_N;
            Bs[r][c] = B[(size_t)(k0 + r) * N + block_col + c];
        }
        __syncthreads();

#pragma unroll
        for (int kk = 0; kk < BLOCK_K; kk += WMMA_K) {
            wmma::load_matrix_sync(a_frag, &As[warp_row * WMMA_M][kk], BLOCK_K + SKEW_HALF);
            wmma::load_matrix_sync(b_frag, &Bs[kk][warp_col * WMMA_N], BLOCK_N + SKEW_HALF);
            wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
        }
    }

    float *c_tile = C + (size_t)(block_row + warp_row * WMMA_M) * N + block_col + warp_col * WMMA_N;
    wmma::store_matrix_sync(c_tile, acc_frag, N, wmma::mem_row_major);
}

int main()
{
    const int M = 512, N = 512, K = 1024;
    std::vector<half> hA((size_t)M * K), hB((size_t)K * N);
    for (size_t i = 0; i < hA.size(); ++i)
        hA[i] = __float2half((float)(i % 7) * 0.125f);
    for (size_t i = 0; i < hB.size(); ++i)
        hB[i] = __float2half((float)(i % 5) * 0.25f);

    half *dA = nullptr, *dB = nullptr;
    float *dC = nullptr;
    cudaMalloc(&dA, sizeof(half) * M * K);
    cudaMalloc(&dB, sizeof(half) * K * N);
    cudaMalloc(&dC, sizeof(float) * M * N);
    cudaMemcpy(dA, hA.data(), sizeof(half) * M * K, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, hB.data(), sizeof(half) * K * N, cudaMemcpyHostToDevice);

    dim3 block(THREADS_PER_BLOCK);
    dim3 grid(N / BLOCK_N, M / BLOCK_M);
    hgemm_wmma_smem<<<grid, block>>>(dA, dB, dC, M, N, K);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "hgemm_wmma_smem: %s\n", cudaGetErrorString(err));
        return 1;
    }

    std::vector<float> hC((size_t)M * N);
    cudaMemcpy(hC.data(), dC, sizeof(float) * M * N, cudaMemcpyDeviceToHost);
    printf("C[0] = %f, C[last] = %f\n", hC[0], hC[hC.size() - 1]);

    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return 0;
}
