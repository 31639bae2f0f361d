// Half-precision GEMM on tensor cores (WMMA 16x16x16, fp32 accumulate): a block of 4 warps
// computes a 32x32 tile of C; 32x16 slices of A and 16x32 slices of B are staged in shared memory
// by all 128 threads, then each warp loads its fragments from shared memory.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>

using namespace nvcuda;

#define M 2048
#define N 2048
#define K 2048
#define WM 16
#define WN 16
#define WK 16
#define BM 32
#define BN 32
#define BK 16
#define BLOCK 128
#define WARP 32

__global__ void wmmaHgemm(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C)
{
    __shared__ __align__(32) half As[BM][BK];
    __shared__ __align__(32) half Bs[BK][BN];
    const int tid = threadIdx.x;
    const int warp = tid / WARP;
    const int wRow = warp / (BN / WN);
    const int wCol = warp % (BN / WN);
    const int rowBase = blockIdx.y * BM;
    const int colBase = blockIdx.x * BN;

    wmma::fragment<wmma::accumulator, WM, WN, WK, float> cFrag;
    wmma::fill_fragment(cFrag, 0.0f);

    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int p = 0; p < (BM * BK) / BLOCK; ++p) {
            int idx = tid + p * BLOCK;
            As[idx / BK][idx % BK] = A[(size_t)(rowBase + idx / BK) * K + k0 + idx % BK];
        }
#pragma unroll
        for (int p = 0; p < (BK * BN) / BLOCK; ++p) {
            int idx = tid + p * BLOCK;
            Bs[idx / BN][idx % BN] = B[(size_t)(k0 + idx / BN) * N + colBase + idx % BN];
        }
        __syncthreads();

        wmma::fragment<wmma::matrix_a, WM, WN, WK, half, wmma::row_major> aFrag;
        wmma::fragment<wmma::matrix_b, WM, WN, WK, half, wmma::row_major> bFrag;
        wmma::load_matrix_sync(aFrag, &As[wRow * WM][0], BK);
        wmma::load_matrix_sync(bFrag, &Bs[0][wCol * WN], BN);
        wmma::mma_sync(cFrag, aFrag, bFrag, cFrag);
        __syncthreads();
    }

    float *cTile = C + (size_t)(rowBase + wRow * WM) * N + colBase + wCol * WN;
    wmma::store_matrix_sync(cTile, cFrag, N, wmma::mem_row_major);
}

int main()
{
    half *d_a, *d_b;
    float *d_c;
    cudaMalloc(&d_a, (size_t)M * K * sizeof(half));
    cudaMalloc(&d_b, (size_t)K * N * sizeof(half));
    cudaMalloc(&d_c, (size_t)M * N * sizeof(float));
    cudaMemset(d_a, 0, (size_t)M * K * sizeof(half));
    cudaMemset(d_b, 0, (size_t)K * N * sizeof(half));
    dim3 grid(N / BN, M / BM);
    wmmaHgemm<<<grid, BLOCK>>>(d_a, d_b, d_c);
    cudaDeviceSynchronize();
    printf("wmma_hgemm done\n");
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return 0;
}
