// Variant of cupipeline_smooth.cu: no barrier between consumer_wait() and the neighbour reads.
// Three-point smoothing of a long float4 stream (e.g. interleaved RGBA or xyzw samples),
// 0.25 * left + 0.5 * centre + 0.25 * right per component, within tiles of 128 vectors.
// Each block walks its run of tiles with a two-stage per-thread cuda::pipeline: every thread
// copies its own float4 of tile k+2 into the stage tile k used, asynchronously, while the block
// smooths the tile in the other stage. Neighbours belong to other threads, so every stage is
// published with consumer_wait() + __syncthreads() and released only after a second barrier.
#include <cuda_runtime.h>
#include <cuda/pipeline>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kVecs = 128; // float4 per tile = threads per block
constexpr int kStages = 2;

__global__ void __launch_bounds__(kVecs)
smooth3_float4_pipelined(const float4 *__restrict__ in, float4 *__restrict__ out, int tiles_per_block)
{
    __shared__ float4 stage[kStages][kVecs];

    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const int t = threadIdx.x;
    const size_t first = (size_t)blockIdx.x * tiles_per_block * kVecs;

    // Prologue: fill both stages.
    for (int s = 0; s < kStages && s < tiles_per_block; ++s) {
        pipe.producer_acquire();
        cuda::memcpy_async(&stage[s][t], &in[first + (size_t)s * kVecs + t], sizeof(float4), pipe);
        pipe.producer_commit();
    }

    for (int tile = 0; tile < tiles_per_block; ++tile) {
        const int cur = tile % kStages;
        pipe.consumer_wait();

        const float4 l = stage[cur][t > 0 ? t - 1 : 0];
        const float4 c = stage[cur][t];
        const float4 r = stage[cur][t < kVecs - 1 ? t + 1 : kVecs - 1];
        out[first + (size_t)tile * kVecs + t] =
            make_float4(0.25f * l.x + 0.5f * c.x + 0.25f * r.x, 0.25f * l.y + 0.5f * c.y + 0.25f * r.y,
                        0.25f * l.z + 0.5f * c.z + 0.25f * r.z, 0.25f * l.w + 0.5f * c.w + 0.25f * r.w);

        __syncthreads(); // every thread is done reading this stage
        pipe.consumer_release();

        if (tile + kStages < tiles_per_block) {
            pipe.producer_acquire();
            cuda::memcpy_async(&stage[cur][t], &in[first + (size_t)(tile + kStages) * kVecs + t],
                               sizeof(float4), pipe);
            pipe.producer_commit();
        }
    }
}

int main()
{
    const int blocks = 1024;
    const int tiles_per_block = 32;
    const size_t n = (size_t)blocks * tiles_per_block * kVecs;

    std::vector<float4> h(n);
    for (size_t i = 0; i < n; ++i)
        h[i] = make_float4((float)(i % 3), (float)(i % 5), (float)(i % 7), 1.0f);

    float4 *d_in = nullptr, *d_out = nullptr;
    cudaMalloc(&d_in, n * sizeof(float4));
    cudaMalloc(&d_out, n * sizeof(float4));
    cudaMemcpy(d_in, h.data(), n * sizeof(float4), cudaMemcpyHostToDevice);

    smooth3_float4_pipelined<<<blocks, kVecs>>>(d_in, d_out, tiles_per_block);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        fprintf(stderr, "smooth3_float4_pipelined failed\n");
        return 1;
    }
    cudaMemcpy(h.data(), d_out, n * sizeof(float4), cudaMemcpyDeviceToHost);
    printf("out[1] = (%f, %f, %f, %f)\n", h[1].x, h[1].y, h[1].z, h[1].w);

    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
