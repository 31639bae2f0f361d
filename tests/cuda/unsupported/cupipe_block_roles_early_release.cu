// Decimation by two of a long float signal (e.g. an audio or sensor stream resampled to half
// rate): out[j] = gain * 0.5 * (x[2j] + x[2j+1]), a box filter followed by dropping every other
// sample. Each block streams a contiguous run of tiles of kTile samples through a two-stage
// block-scope cuda::pipeline with specialised roles: warp 0 is the producer and only issues the
// asynchronous copies of the tiles into shared memory; the other four warps are consumers and
// only compute, one output sample per consumer thread per tile. A consumer's pair of samples
// was copied by a producer lane, never by the consumer itself.
// This variant releases the stage between the consumer's two loads from it.
#include <cuda_runtime.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kProducerThreads = 32;                      // warp 0
constexpr int kConsumerThreads = 128;                     // warps 1..4
constexpr int kThreads = kProducerThreads + kConsumerThreads;
constexpr int kTile = 2 * kConsumerThreads;               // input samples per stage
constexpr int kHalfTile = kTile / 2;                      // 128 floats = 32 lanes x float4
constexpr int kStages = 2;

#define CUDA_CHECK(call)                                                                      \
    do {                                                                                      \
        cudaError_t err_ = (call);                                                            \
        if (err_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

__global__ void __launch_bounds__(kThreads)
decimate2_pipelined(const float *__restrict__ in, float *__restrict__ out, float gain, int tiles_per_block)
{
    __shared__ __align__(16) float stage[kStages][kTile];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;

    auto block = cg::this_thread_block();
    const cuda::pipeline_role role =
        threadIdx.x < kProducerThreads ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    auto pipe = cuda::make_pipeline(block, &state, role);

    const float *src = in + (size_t)blockIdx.x * tiles_per_block * kTile;
    float *dst = out + (size_t)blockIdx.x * tiles_per_block * kConsumerThreads;

    if (role == cuda::pipeline_role::producer) {
        // Each lane copies two float4 of every tile: samples [4l, 4l+4) and [128+4l, 128+4l+4).
        const int lane = threadIdx.x;
        for (int k = 0; k < tiles_per_block; ++k) {
            const int s = k % kStages;
            pipe.producer_acquire(); // stage s is free: the consumers released tile k-kStages
            cuda::memcpy_async(&stage[s][4 * lane], src + (size_t)k * kTile + 4 * lane, sizeof(float4), pipe);
            cuda::memcpy_async(&stage[s][kHalfTile + 4 * lane], src + (size_t)k * kTile + kHalfTile + 4 * lane,
                               sizeof(float4), pipe);
            pipe.producer_commit();
        }
    } else {
        const int c = threadIdx.x - kProducerThreads;
        for (int k = 0; k < tiles_per_block; ++k) {
            const int s = k % kStages;
            pipe.consumer_wait(); // every producer lane's copies of tile k have landed
            const float x0 = stage[s][2 * c];
            // Released early "to let the producer start on tile k+2 sooner": the second load
            // below still reads stage s.
            pipe.consumer_release();
            const float x1 = stage[s][2 * c + 1];
            dst[(size_t)k * kConsumerThreads + c] = gain * 0.5f * (x0 + x1);
        }
    }
}

int main()
{
    const int blocks = 512;
    const int tiles_per_block = 32;
    const size_t n = (size_t)blocks * tiles_per_block * kTile;
    const size_t n_out = n / 2;
    const float gain = 2.0f;

    std::vector<float> h_in(n);
    for (size_t i = 0; i < n; ++i)
        h_in[i] = (float)(i % 17) - 8.0f;

    float *d_in = nullptr, *d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n_out * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    decimate2_pipelined<<<blocks, kThreads>>>(d_in, d_out, gain, tiles_per_block);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    std::vector<float> h_out(n_out);
    CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n_out * sizeof(float), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t j = 0; j < n_out; ++j) {
        const float ref = gain * 0.5f * (h_in[2 * j] + h_in[2 * j + 1]);
        if (h_out[j] != ref)
            ++bad;
    }
    printf("decimate2: %zu outputs, %zu mismatches\n", n_out, bad);

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return bad == 0 ? 0 : 1;
}
