// LayerNorm over the last dimension (rows of 1024 floats), as in a transformer's pre-norm:
// y = (x - mean) / sqrt(var + eps) * gamma + beta. Each block normalizes a run of rows; row r+2
// is prefetched into shared memory with a per-thread cuda::pipeline (one float4 per thread)
// while row r is being reduced. A thread loads its four values in the strided order
// t, t + 256, t + 512, t + 768 (so the stores to y and the gamma/beta loads are coalesced),
// i.e. mostly elements that other threads copied.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda/pipeline>

constexpr int kThreads = 256;
constexpr int kCols = 1024;
constexpr int kPerThread = kCols / kThreads; // 4
constexpr int kStages = 2;
constexpr float kEps = 1e-5f;

static_assert(kCols == 4 * kThreads, "one float4 copy per thread and row");

// Block-wide sum over shared scratch `red`; returns the total to every thread. The trailing
// barrier lets the caller reuse `red` immediately.
__device__ float block_sum(float v, float *red)
{
    const int t = threadIdx.x;
    red[t] = v;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] += red[t + s];
        __syncthreads();
    }
    const float total = red[0];
    __syncthreads();
    return total;
}

__global__ void __launch_bounds__(kThreads)
layernorm_rows_pipelined(const float *__restrict__ x, const float *__restrict__ gamma,
                         const float *__restrict__ beta, float *__restrict__ y, int rows_per_block)
{
    __shared__ __align__(16) float rowbuf[kStages][kCols];
    __shared__ float red[kThreads];

    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const int t = threadIdx.x;
    const size_t row0 = (size_t)blockIdx.x * rows_per_block;

    for (int s = 0; s < kStages && s < rows_per_block; ++s) {
        pipe.producer_acquire();
        cuda::memcpy_async(&rowbuf[s][4 * t], &x[(row0 + s) * kCols + 4 * t], sizeof(float4), pipe);
        pipe.producer_commit();
    }

    for (int r = 0; r < rows_per_block; ++r) {
        const int cur = r % kStages;
        pipe.consumer_wait(); // my float4 of row r has landed
        __syncthreads();      // so has everyone's

        float v[kPerThread];
        float sum = 0.0f;
#pragma unroll
        for (int i = 0; i < kPerThread; ++i) {
            v[i] = rowbuf[cur][t + i * kThreads];
            sum += v[i];
        }
        const float mean = block_sum(sum, red) * (1.0f / kCols);

        float sq = 0.0f;
#pragma unroll
        for (int i = 0; i < kPerThread; ++i) {
            const float d = v[i] - mean;
            sq += d * d;
        }
        const float rstd = rsqrtf(block_sum(sq, red) * (1.0f / kCols) + kEps);

        float *yrow = y + (row0 + r) * kCols;
#pragma unroll
        for (int i = 0; i < kPerThread; ++i) {
            const int c = t + i * kThreads;
            yrow[c] = (v[i] - mean) * rstd * gamma[c] + beta[c];
        }
        pipe.consumer_release();

        // The reads of rowbuf[cur] above precede the barriers in block_sum: refill it.
        if (r + kStages < rows_per_block) {
            pipe.producer_acquire();
            cuda::memcpy_async(&rowbuf[cur][4 * t], &x[(row0 + r + kStages) * kCols + 4 * t],
                               sizeof(float4), pipe);
            pipe.producer_commit();
        }
    }
}

int main()
{
    const int blocks = 264;
    const int rows_per_block = 16;
    const size_t rows = (size_t)blocks * rows_per_block;
    const size_t n = rows * kCols;

    std::vector<float> h_x(n), h_gamma(kCols), h_beta(kCols), h_y(n);
    for (size_t i = 0; i < n; ++i)
        h_x[i] = sinf(0.01f * (float)(i % 4099)) + 0.001f * (float)(i / kCols);
    for (int c = 0; c < kCols; ++c) {
        h_gamma[c] = 1.0f + 0.001f * c;
        h_beta[c] = 0.01f * (c % 17);
    }

    float *d_x, *d_gamma, *d_beta, *d_y;
    if (cudaMalloc(&d_x, n * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&d_gamma, kCols * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&d_beta, kCols * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&d_y, n * sizeof(float)) != cudaSuccess) {
        fprintf(stderr, "cudaMalloc failed\n");
        return 1;
    }
    cudaMemcpy(d_x, h_x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_gamma, h_gamma.data(), kCols * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_beta, h_beta.data(), kCols * sizeof(float), cudaMemcpyHostToDevice);

    layernorm_rows_pipelined<<<blocks, kThreads>>>(d_x, d_gamma, d_beta, d_y, rows_per_block);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "layernorm_rows_pipelined: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(h_y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost);

    // Check row 5 on the host.
    const float *xr = &h_x[5 * (size_t)kCols];
    double mean = 0.0, var = 0.0;
    for (int c = 0; c < kCols; ++c) mean += xr[c];
    mean /= kCols;
    for (int c = 0; c < kCols; ++c) var += (xr[c] - mean) * (xr[c] - mean);
    var /= kCols;
    double max_err = 0.0;
    for (int c = 0; c < kCols; ++c) {
        const double ref = (xr[c] - mean) / sqrt(var + kEps) * h_gamma[c] + h_beta[c];
        max_err = fmax(max_err, fabs(ref - h_y[5 * (size_t)kCols + c]));
    }
    printf("row 5 max error %g\n", max_err);

    cudaFree(d_x);
    cudaFree(d_gamma);
    cudaFree(d_beta);
    cudaFree(d_y);
    return 0;
}
