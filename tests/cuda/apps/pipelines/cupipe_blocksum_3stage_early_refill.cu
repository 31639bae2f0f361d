// Streaming sum of a long float array: each block reduces a contiguous run of tiles of
// 2 * kThreads floats to one partial sum, and the host adds the partials. Tiles stream through a
// three-stage ring in shared memory with a per-thread cuda::pipeline: every thread copies its own
// 8-byte pair (a float2) of each tile, and adds the tile in the conflict-free order
// stage[t] + stage[t + kThreads] ("first add during load"), so most of what a thread adds was
// copied by other threads. With three stages one barrier per tile is enough: the stage refilled
// in iteration k is the one read in iteration k-1, and that barrier lies between the two.
// Variant: the refill was hoisted above that barrier to issue it earlier.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda/pipeline>

constexpr int kThreads = 256;
constexpr int kTile = 2 * kThreads; // floats per stage
constexpr int kStages = 3;

#define CUDA_CHECK(call)                                                                      \
    do {                                                                                      \
        cudaError_t err_ = (call);                                                            \
        if (err_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

__global__ void __launch_bounds__(kThreads)
block_sum_3stage(const float *__restrict__ in, float *__restrict__ partial, int tiles_per_block)
{
    __shared__ __align__(16) float stage[kStages][kTile];
    __shared__ float red[kThreads];

    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const int t = threadIdx.x;
    const float *src = in + (size_t)blockIdx.x * tiles_per_block * kTile;

    // Prologue: tiles 0 and 1 into stages 0 and 1.
    for (int s = 0; s < kStages - 1 && s < tiles_per_block; ++s) {
        pipe.producer_acquire();
        cuda::memcpy_async(&stage[s][2 * t], src + (size_t)s * kTile + 2 * t, sizeof(float2), pipe);
        pipe.producer_commit();
    }

    float acc = 0.0f;
    for (int k = 0; k < tiles_per_block; ++k) {
        pipe.consumer_wait(); // my pair of tile k has landed

        // Refill the stage of tile k-1 with tile k+2 (issued as early as possible).
        if (k + kStages - 1 < tiles_per_block) {
            const int s = (k + kStages - 1) % kStages;
            pipe.producer_acquire();
            cuda::memcpy_async(&stage[s][2 * t], src + (size_t)(k + kStages - 1) * kTile + 2 * t,
                               sizeof(float2), pipe);
            pipe.producer_commit();
        }
        __syncthreads();      // everyone's pair of tile k has landed

        const int cur = k % kStages;
        acc += stage[cur][t] + stage[cur][t + kThreads];
        pipe.consumer_release();
    }

    red[t] = acc;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] += red[t + s];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = red[0];
}

int main()
{
    const int blocks = 432;
    const int tiles_per_block = 48;
    const size_t n = (size_t)blocks * tiles_per_block * kTile;

    std::vector<float> h_in(n);
    double ref = 0.0;
    for (size_t i = 0; i < n; ++i) {
        h_in[i] = (float)((i * 7) % 11) - 5.0f;
        ref += h_in[i];
    }

    float *d_in = nullptr, *d_partial = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    block_sum_3stage<<<blocks, kThreads>>>(d_in, d_partial, tiles_per_block);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    std::vector<float> h_partial(blocks);
    CUDA_CHECK(cudaMemcpy(h_partial.data(), d_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0.0;
    for (int b = 0; b < blocks; ++b)
        sum += h_partial[b];
    printf("sum = %.1f (reference %.1f)\n", sum, ref);

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_partial));
    return 0;
}
