// Variant of ws_transpose.cu: the consumers write stage 0 out before waiting on FULL_0.
// Warp-specialized out-of-place transpose with scaling, out = alpha * in^T, for a row-major
// kRows x kCols matrix. A block owns a strip of 32 rows and walks its 32x32 tiles left to right.
//
// Warps 0-3 (producers) copy tile t of the strip into one of two shared stages; warps 4-7
// (consumers) write the stage back transposed, coalesced along the rows of `out`. The stages
// are handed over with PTX named barriers, counting all 256 threads of the block:
//   FULL_s  (ids 1, 2): producers bar.arrive after filling stage s, consumers bar.sync before
//                       reading it;
//   EMPTY_s (ids 3, 4): consumers bar.arrive after reading stage s, producers bar.sync before
//                       refilling it.
// Both stages start out empty: the consumers arrive once on each EMPTY barrier before their
// loop, and only release a stage again when the producers will refill it.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

namespace cfg {
constexpr int kTile = 32;
constexpr int kProducerThreads = 128;
constexpr int kConsumerThreads = 128;
constexpr int kThreads = kProducerThreads + kConsumerThreads;
constexpr int kPipeThreads = kProducerThreads + kConsumerThreads; // every FULL/EMPTY barrier
constexpr int kRows = 2048;
constexpr int kCols = 1024;
constexpr int kTilesPerStrip = kCols / kTile; // 32

constexpr int kBarFull0 = 1;
constexpr int kBarFull1 = 2;
constexpr int kBarEmpty0 = 3;
constexpr int kBarEmpty1 = 4;
} // namespace cfg

using namespace cfg;

__device__ __forceinline__ void named_bar_sync(int id, int count)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}

__device__ __forceinline__ void named_bar_arrive(int id, int count)
{
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
}

// Producer thread p copies column p % 32 of rows p / 32 + 4 * i (i = 0..7) of tile t.
__device__ __forceinline__ void load_tile(float (*stage)[kTile + 1], const float *__restrict__ in, int row0,
                                          int t, int p)
{
    const int c = p % kTile;
#pragma unroll
    for (int i = 0; i < kTile / 4; ++i) {
        const int r = p / kTile + 4 * i;
        stage[r][c] = in[(size_t)(row0 + r) * kCols + t * kTile + c];
    }
}

// Consumer thread q writes element (i, j) of the tile to out[t*32 + j][row0 + i], with
// i = q % 32 (consecutive lanes write consecutive addresses) and j = q / 32 + 4 * m.
__device__ __forceinline__ void store_tile_transposed(const float (*stage)[kTile + 1], float *__restrict__ out,
                                                      int row0, int t, int q, float alpha)
{
    const int i = q % kTile;
#pragma unroll
    for (int m = 0; m < kTile / 4; ++m) {
        const int j = q / kTile + 4 * m;
        out[(size_t)(t * kTile + j) * kRows + row0 + i] = alpha * stage[i][j];
    }
}

__global__ void __launch_bounds__(kThreads)
transpose_scale_ws(const float *__restrict__ in, float *__restrict__ out, float alpha)
{
    __shared__ float stage[2][kTile][kTile + 1];

    const int row0 = blockIdx.x * kTile;
    const int warp = threadIdx.x / 32;

    if (warp < kProducerThreads / 32) {
        const int p = threadIdx.x;
        for (int t = 0; t < kTilesPerStrip; ++t) {
            if ((t & 1) == 0) {
                named_bar_sync(kBarEmpty0, kPipeThreads);
                load_tile(stage[0], in, row0, t, p);
                named_bar_arrive(kBarFull0, kPipeThreads);
            } else {
                named_bar_sync(kBarEmpty1, kPipeThreads);
                load_tile(stage[1], in, row0, t, p);
                named_bar_arrive(kBarFull1, kPipeThreads);
            }
        }
    } else {
        const int q = threadIdx.x - kProducerThreads;
        named_bar_arrive(kBarEmpty0, kPipeThreads);
        named_bar_arrive(kBarEmpty1, kPipeThreads);
        for (int t = 0; t < kTilesPerStrip; ++t) {
            if ((t & 1) == 0) {
                store_tile_transposed(stage[0], out, row0, t, q, alpha);
                named_bar_sync(kBarFull0, kPipeThreads);
                if (t + 2 < kTilesPerStrip)
                    named_bar_arrive(kBarEmpty0, kPipeThreads);
            } else {
                named_bar_sync(kBarFull1, kPipeThreads);
                store_tile_transposed(stage[1], out, row0, t, q, alpha);
                if (t + 2 < kTilesPerStrip)
                    named_bar_arrive(kBarEmpty1, kPipeThreads);
            }
        }
    }
}

int main()
{
    const size_t n = (size_t)kRows * kCols;
    std::vector<float> h_in(n), h_out(n);
    for (size_t k = 0; k < n; ++k)
        h_in[k] = (float)(k % 977);

    float *d_in = nullptr, *d_out = nullptr;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice);

    const dim3 grid(kRows / kTile);
    const dim3 block(kThreads);
    transpose_scale_ws<<<grid, block>>>(d_in, d_out, 0.5f);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        std::printf("transpose failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);

    int bad = 0;
    for (int r = 0; r < kRows; r += 97)
        for (int c = 0; c < kCols; c += 89)
            bad += h_out[(size_t)c * kRows + r] != 0.5f * h_in[(size_t)r * kCols + c];
    std::printf("%s\n", bad ? "FAILED" : "PASSED");

    cudaFree(d_in);
    cudaFree(d_out);
    return bad != 0;
}
