// Textbook 1-D convolution with a (2*kRadius+1)-tap mask in constant memory, tiled with a halo:
// each output tile of kThreads points needs kThreads + 2*kRadius inputs. The input is padded on
// the host with kRadius zeros on each side, so tile j needs in_padded[j*kThreads ...
// j*kThreads + kThreads + 2*kRadius). Each block convolves a run of tiles; a per-thread
// cuda::pipeline fetches tile j+2 into one of two shared buffers while tile j is convolved from
// the other. Thread t copies element t of the span, and threads t < 2*kRadius also the right
// halo element kThreads + t.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda/pipeline>

constexpr int kThreads = 256;
constexpr int kRadius = 4;
constexpr int kTaps = 2 * kRadius + 1;
constexpr int kSpan = kThreads + 2 * kRadius;
constexpr int kStages = 2;

__constant__ float c_mask[kTaps];

using pipeline_t = cuda::pipeline<cuda::thread_scope_thread>;

// Commit one stage: this thread's share of the span starting at `src`.
__device__ void fetch_span(float *buf, const float *src, pipeline_t &pipe)
{
    const int t = threadIdx.x;
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[t], &src[t], sizeof(float), pipe);
    if (t < 2 * kRadius)
        cuda::memcpy_async(&buf[kThreads + t], &src[kThreads + t], sizeof(float), pipe);
    pipe.producer_commit();
}

__global__ void __launch_bounds__(kThreads)
conv1d_halo_pipelined(const float *__restrict__ in_padded, float *__restrict__ out, int tiles_per_block)
{
    __shared__ float span[kStages][kSpan];

    pipeline_t pipe = cuda::make_pipeline();
    const int t = threadIdx.x;
    const size_t first = (size_t)blockIdx.x * tiles_per_block * kThreads;

    for (int s = 0; s < kStages && s < tiles_per_block; ++s)
        fetch_span(span[s], in_padded + first + (size_t)s * kThreads, pipe);

    for (int j = 0; j < tiles_per_block; ++j) {
        const int cur = j % kStages;
        pipe.consumer_wait();
        __syncthreads(); // the whole span of tile j has landed

        float acc = 0.0f;
#pragma unroll
        for (int k = 0; k < kTaps; ++k)
            acc += c_mask[k] * span[cur][t + k];
        out[first + (size_t)j * kThreads + t] = acc;

        __syncthreads(); // nobody reads span[cur] any more
        pipe.consumer_release();

        if (j + kStages < tiles_per_block)
            fetch_span(span[cur], in_padded + first + (size_t)(j + kStages) * kThreads, pipe);
    }
}

int main()
{
    const int blocks = 512;
    const int tiles_per_block = 24;
    const size_t n = (size_t)blocks * tiles_per_block * kThreads;
    const size_t padded = n + 2 * kRadius;

    float h_mask[kTaps];
    for (int k = 0; k < kTaps; ++k)
        h_mask[k] = (float)(kRadius + 1 - abs(k - kRadius)) / 25.0f; // triangular, sums to 1
    std::vector<float> h_in(padded, 0.0f), h_out(n);
    for (size_t i = 0; i < n; ++i)
        h_in[kRadius + i] = (float)(i % 10);

    float *d_in = nullptr, *d_out = nullptr;
    cudaError_t err = cudaMalloc(&d_in, padded * sizeof(float));
    if (err == cudaSuccess) err = cudaMalloc(&d_out, n * sizeof(float));
    if (err == cudaSuccess) err = cudaMemcpy(d_in, h_in.data(), padded * sizeof(float), cudaMemcpyHostToDevice);
    if (err == cudaSuccess) err = cudaMemcpyToSymbol(c_mask, h_mask, sizeof(h_mask));
    if (err != cudaSuccess) {
        fprintf(stderr, "setup: %s\n", cudaGetErrorString(err));
        return 1;
    }

    conv1d_halo_pipelined<<<blocks, kThreads>>>(d_in, d_out, tiles_per_block);
    err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "conv1d_halo_pipelined: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);

    int bad = 0;
    for (size_t i = 0; i < n; i += 4093) {
        float ref = 0.0f;
        for (int k = 0; k < kTaps; ++k)
            ref += h_mask[k] * h_in[i + k];
        if (fabsf(ref - h_out[i]) > 1e-4f)
            ++bad;
    }
    printf("%s\n", bad ? "FAILED" : "PASSED");

    cudaFree(d_in);
    cudaFree(d_out);
    return bad ? 1 : 0;
}
