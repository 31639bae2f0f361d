// Tensor-core linear layer with a fused bias + ReLU epilogue and fp16 output: each warp computes
// a 16x16 tile of C = A B with WMMA (fragments loaded straight from global memory), stores the
// fp32 accumulator to its own 16x16 slice of shared memory, and after __syncwarp() each lane
// reads 8 consecutive elements of its warp's tile (stored by other lanes), applies the epilogue
// and writes halves.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>

using namespace nvcuda;

#define M 1024
#define N 1024
#define K 1024
#define WT 16
#define WARP 32
#define BLOCK 128
#define WARPS (BLOCK / WARP)
#define TILE_ELEMS (WT * WT)
#define PER_LANE (TILE_ELEMS / WARP)

__global__ void wmmaBiasRelu(const half *__restrict__ A, const half *__restrict__ B, const float *__restrict__ bias,
                             half *__restrict__ out)
{
    __shared__ __align__(32) float sAcc[WARPS][TILE_ELEMS];
    const int tid = threadIdx.x;
    const int warp = tid / WARP;
    const int lane = tid % WARP;
    const int tileRow = blockIdx.y * WT;
    const int tileCol = (blockIdx.x * WARPS + warp) * WT;

    wmma::fragment<wmma::matrix_a, WT, WT, WT, half, wmma::row_major> aFrag;
    wmma::fragment<wmma::matrix_b, WT, WT, WT, half, wmma::row_major> bFrag;
    wmma::fragment<wmma::accumulator, WT, WT, WT, float> cFrag;
    wmma::fill_fragment(cFrag, 0.0f);
    for (int k0 = 0; k0 < K; k0 += WT) {
        wmma::load_matrix_sync(aFrag, A + (size_t)tileRow * K + k0, K);
        wmma::load_matrix_sync(bFrag, B + (size_t)k0 * N + tileCol, N);
        wmma::mma_sync(cFrag, aFrag, bFrag, cFrag);
    }
    wmma::store_matrix_sync(&sAcc[warp][0], cFrag, WT, wmma::mem_row_major);
    __syncwarp();

#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
        int e = lane * PER_LANE + i;
        int r = e / WT;
        int c = e % WT;
        float v = sAcc[warp][e] + bias[tileCol + c];
        out[(size_t)(tileRow + r) * N + tileCol + c] = __float2half(fmaxf(v, 0.0f));
    }
}

int main()
{
    half *d_a, *d_b, *d_out;
    float *d_bias;
    cudaMalloc(&d_a, (size_t)M * K * sizeof(half));
    cudaMalloc(&d_b, (size_t)K * N * sizeof(half));
    cudaMalloc(&d_out, (size_t)M * N * sizeof(half));
    cudaMalloc(&d_bias, N * sizeof(float));
    cudaMemset(d_a, 0, (size_t)M * K * sizeof(half));
    cudaMemset(d_b, 0, (size_t)K * N * sizeof(half));
    cudaMemset(d_bias, 0, N * sizeof(float));
    dim3 grid(N / (WT * WARPS), M / WT);
    wmmaBiasRelu<<<grid, BLOCK>>>(d_a, d_b, d_bias, d_out);
    cudaDeviceSynchronize();
    printf("wmma_epilogue_warp done\n");
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_out);
    cudaFree(d_bias);
    return 0;
}
