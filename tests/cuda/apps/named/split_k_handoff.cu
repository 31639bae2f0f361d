// Fused linear + ReLU for a single token (decode-time GEMV): y = relu(W x + b), W stored
// K-major (w_t[k * kOut + o]) so that consecutive threads read consecutive weights.
//
// One block computes 128 outputs with 256 threads: the reduction over K is split between the
// two halves of the block. Warps 4-7 sum the upper half of K, park their partial sums in shared
// memory and signal with a non-blocking `barrier.arrive`; warps 0-3 sum the lower half, wait on
// the same named barrier (`barrier.sync`, all 256 threads counted) and finish the outputs.
// The upper half never waits: it is free to retire as soon as its partials are published.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kIn = 1024;                // K
constexpr int kOut = 4096;               // outputs
constexpr int kRowsPerBlock = 128;
constexpr int kThreads = 2 * kRowsPerBlock;
constexpr int kHalfK = kIn / 2;
constexpr int kBarPartials = 1;          // named barrier: upper-half partials are in smem

template <int ID, int COUNT>
__device__ __forceinline__ void bar_arrive()
{
    asm volatile("barrier.arrive %0, %1;" ::"r"(ID), "r"(COUNT) : "memory");
}

template <int ID, int COUNT>
__device__ __forceinline__ void bar_sync()
{
    asm volatile("barrier.sync %0, %1;" ::"r"(ID), "r"(COUNT) : "memory");
}

__device__ __forceinline__ float dot_range(const float *__restrict__ w_t, const float *__restrict__ x,
                                           int o, int k_begin, int k_end)
{
    float acc = 0.f;
#pragma unroll 8
    for (int k = k_begin; k < k_end; ++k)
        acc = fmaf(w_t[(size_t)k * kOut + o], x[k], acc);
    return acc;
}

__global__ void __launch_bounds__(kThreads)
linear_relu_splitk(const float *__restrict__ w_t, const float *__restrict__ x, const float *__restrict__ bias,
                   float *__restrict__ y)
{
    __shared__ float partial[kRowsPerBlock];

    const int lane_row = threadIdx.x % kRowsPerBlock;
    const int o = blockIdx.x * kRowsPerBlock + lane_row;

    if (threadIdx.x >= kRowsPerBlock) {
        // warps 4-7: upper half of K
        partial[lane_row] = dot_range(w_t, x, o, kHalfK, kIn);
        bar_arrive<kBarPartials, kThreads>();
    } else {
        // warps 0-3: lower half of K, then the epilogue
        const float lo = dot_range(w_t, x, o, 0, kHalfK);
        bar_sync<kBarPartials, kThreads>();
        const float v = lo + partial[lane_row] + bias[o];
        y[o] = v > 0.f ? v : 0.f;
    }
}

int main()
{
    std::vector<float> h_w((size_t)kIn * kOut), h_x(kIn), h_b(kOut), h_y(kOut);
    for (size_t i = 0; i < h_w.size(); ++i)
        h_w[i] = ((int)(i % 17) - 8) * 0.01f;
    for (int k = 0; k < kIn; ++k)
        h_x[k] = 1.0f / (1 + k % 5);
    for (int o = 0; o < kOut; ++o)
        h_b[o] = (o % 3) * 0.1f;

    float *d_w, *d_x, *d_b, *d_y;
    cudaMalloc(&d_w, h_w.size() * sizeof(float));
    cudaMalloc(&d_x, kIn * sizeof(float));
    cudaMalloc(&d_b, kOut * sizeof(float));
    cudaMalloc(&d_y, kOut * sizeof(float));
    cudaMemcpy(d_w, h_w.data(), h_w.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, h_x.data(), kIn * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b.data(), kOut * sizeof(float), cudaMemcpyHostToDevice);

    dim3 grid(kOut / kRowsPerBlock), block(kThreads);
    linear_relu_splitk<<<grid, block>>>(d_w, d_x, d_b, d_y);
    cudaDeviceSynchronize();
    cudaMemcpy(h_y.data(), d_y, kOut * sizeof(float), cudaMemcpyDeviceToHost);
    printf("y[0] = %f, y[%d] = %f\n", h_y[0], kOut - 1, h_y[kOut - 1]);

    cudaFree(d_w);
    cudaFree(d_x);
    cudaFree(d_b);
    cudaFree(d_y);
    return 0;
}
