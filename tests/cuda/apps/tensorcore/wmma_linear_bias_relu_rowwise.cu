// Variant of wmma_linear_bias_relu.cu: the epilogue walks whole 32-column rows of the staging
// tile (parts stored by other warps) after only a __syncwarp().
// Fused linear layer Y = relu(X * W^T + bias) on tensor cores (WMMA), as in an MLP forward
// pass: X (M x K) row-major half activations, W (N x K) row-major half weights (so W^T is read
// as a column-major matrix_b), bias (N) float, Y (M x N) half. A block of 4 warps computes a
// 32x32 tile of Y; warp w accumulates its 16x16 tile from fragments loaded straight from global
// memory, stores the accumulator into its own 16x16 part of a shared staging tile, and applies
// the bias + ReLU epilogue to that part (the accumulator's element layout is opaque, so the
// epilogue goes through shared memory).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace nvcuda;

constexpr int kTileM = 16;
constexpr int kTileN = 16;
constexpr int kTileK = 16;
constexpr int kWarpsM = 2;
constexpr int kWarpsN = 2;
constexpr int kBlockM = kTileM * kWarpsM; // 32
constexpr int kBlockN = kTileN * kWarpsN; // 32
constexpr int kThreads = 32 * kWarpsM * kWarpsN;
constexpr int kStageLd = kBlockN + 4; // floats; a multiple of 4 as store_matrix_sync requires

__global__ void __launch_bounds__(kThreads)
linear_bias_relu_wmma(const half *__restrict__ X, const half *__restrict__ W,
                      const float *__restrict__ bias, half *__restrict__ Y, int M, int N, int K)
{
    __shared__ __align__(32) float stage[kBlockM][kStageLd];

    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const int wm = warp / kWarpsN;
    const int wn = warp % kWarpsN;
    const int row0 = blockIdx.y * kBlockM + wm * kTileM;
    const int col0 = blockIdx.x * kBlockN + wn * kTileN;

    wmma::fragment<wmma::matrix_a, kTileM, kTileN, kTileK, half, wmma::row_major> x_frag;
    wmma::fragment<wmma::matrix_b, kTileM, kTileN, kTileK, half, wmma::col_major> w_frag;
    wmma::fragment<wmma::accumulator, kTileM, kTileN, kTileK, float> acc;
    wmma::fill_fragment(acc, 0.0f);

    for (int k = 0; k < K; k += kTileK) {
        wmma::load_matrix_sync(x_frag, X + (size_t)row0 * K + k, K);
        // Column n of W^T is row n of W: a column-major K x 16 block with leading dimension K.
        wmma::load_matrix_sync(w_frag, W + (size_t)col0 * K + k, K);
        wmma::mma_sync(acc, x_frag, w_frag, acc);
    }

    // Accumulator -> this warp's 16x16 part of the staging tile.
    float *my_tile = &stage[wm * kTileM][wn * kTileN];
    wmma::store_matrix_sync(my_tile, acc, kStageLd, wmma::mem_row_major);
    __syncwarp();

    // Epilogue by whole rows of the block tile for coalesced stores: lane = column (32 of them),
    // warp w takes rows w, w + 4, ..., 8 rows each.
    const int tile_row0 = blockIdx.y * kBlockM;
    const int tile_col0 = blockIdx.x * kBlockN;
    const float b = bias[tile_col0 + lane];
    for (int r = warp; r < kBlockM; r += kWarpsM * kWarpsN) {
        const float v = stage[r][lane] + b;
        Y[(size_t)(tile_row0 + r) * N + tile_col0 + lane] = __float2half(v > 0.0f ? v : 0.0f);
    }
}

int main()
{
    const int batch = 256;         // M
    const int in_features = 768;   // K
    const int out_features = 3072; // N
    std::vector<half> hX((size_t)batch * in_features), hW((size_t)out_features * in_features);
    std::vector<float> hBias(out_features);
    for (size_t i = 0; i < hX.size(); ++i)
        hX[i] = __float2half(0.01f * (float)((int)(i % 17) - 8));
    for (size_t i = 0; i < hW.size(); ++i)
        hW[i] = __float2half(0.02f * (float)((int)(i % 13) - 6));
    for (int i = 0; i < out_features; ++i)
        hBias[i] = 0.001f * (float)(i % 29);

    half *dX = nullptr, *dW = nullptr, *dY = nullptr;
    float *dBias = nullptr;
    cudaMalloc(&dX, hX.size() * sizeof(half));
    cudaMalloc(&dW, hW.size() * sizeof(half));
    cudaMalloc(&dBias, hBias.size() * sizeof(float));
    cudaMalloc(&dY, (size_t)batch * out_features * sizeof(half));
    cudaMemcpy(dX, hX.data(), hX.size() * sizeof(half), cudaMemcpyHostToDevice);
    cudaMemcpy(dW, hW.data(), hW.size() * sizeof(half), cudaMemcpyHostToDevice);
    cudaMemcpy(dBias, hBias.data(), hBias.size() * sizeof(float), cudaMemcpyHostToDevice);

    const dim3 grid(out_features / kBlockN, batch / kBlockM);
    linear_bias_relu_wmma<<<grid, kThreads, 0>>>(dX, dW, dBias, dY, batch, out_features, in_features);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        fprintf(stderr, "linear_bias_relu_wmma failed\n");
        return 1;
    }

    std::vector<half> hY((size_t)batch * out_features);
    cudaMemcpy(hY.data(), dY, hY.size() * sizeof(half), cudaMemcpyDeviceToHost);
    printf("Y[0] = %f\n", __half2float(hY[0]));

    cudaFree(dX);
    cudaFree(dW);
    cudaFree(dBias);
    cudaFree(dY);
    return 0;
}
