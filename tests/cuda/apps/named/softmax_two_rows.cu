// Row softmax for rows of 1024 fp32 logits, two rows per block of 256 threads.
// Each row is owned by four warps (128 threads, 8 elements each). The row's max and sum are
// reduced with warp shuffles and then across the row's four warps through shared memory.
// The two rows of a block are independent, so instead of __syncthreads() each row's warps
// synchronize among themselves with a named barrier (`barrier.sync id, 128`): row 0 of the
// block uses barrier 1, row 1 barrier 2, and a slow row never stalls the other one.
#include <cuda_runtime.h>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <vector>

constexpr int kCols = 1024;
constexpr int kRows = 8192;
constexpr int kThreadsPerRow = 128;
constexpr int kRowsPerBlock = 2;
constexpr int kThreads = kThreadsPerRow * kRowsPerBlock;
constexpr int kWarpsPerRow = kThreadsPerRow / 32;
constexpr int kVec = kCols / kThreadsPerRow; // 8 logits per thread

template <int BAR>
__device__ __forceinline__ void row_barrier()
{
    asm volatile("barrier.sync %0, %1;" ::"r"(BAR), "r"(kThreadsPerRow) : "memory");
}

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Softmax of one row by the 128 threads (lt = 0..127) of one half of the block; `red` holds
// one slot per warp of the row.
template <int BAR>
__device__ void softmax_row(const float *__restrict__ x, float *__restrict__ y, float *red, int lt)
{
    const int lane = lt % 32;
    const int w = lt / 32;

    float v[kVec];
    float m = -FLT_MAX;
#pragma unroll
    for (int i = 0; i < kVec; ++i) {
        v[i] = x[i * kThreadsPerRow + lt];
        m = fmaxf(m, v[i]);
    }
    m = warp_max(m);
    if (lane == 0)
        red[w] = m;
    row_barrier<BAR>();
    m = fmaxf(fmaxf(red[0], red[1]), fmaxf(red[2], red[3]));
    row_barrier<BAR>(); // all maxima read before red[] is reused for the sums

    float s = 0.f;
#pragma unroll
    for (int i = 0; i < kVec; ++i) {
        v[i] = __expf(v[i] - m);
        s += v[i];
    }
    s = warp_sum(s);
    if (lane == 0)
        red[w] = s;
    row_barrier<BAR>();
    const float inv = 1.f / (red[0] + red[1] + red[2] + red[3]);

#pragma unroll
    for (int i = 0; i < kVec; ++i)
        y[i * kThreadsPerRow + lt] = v[i] * inv;
}

__global__ void __launch_bounds__(kThreads) softmax_two_rows(const float *__restrict__ x, float *__restrict__ y)
{
    __shared__ float red[kRowsPerBlock][kWarpsPerRow];

    const int r = threadIdx.x / kThreadsPerRow; // row of the block, warp-uniform
    const int lt = threadIdx.x % kThreadsPerRow;
    const size_t row = (size_t)blockIdx.x * kRowsPerBlock + r;

    if (r == 0)
        softmax_row<1>(x + row * kCols, y + row * kCols, red[0], lt);
    else
        softmax_row<2>(x + row * kCols, y + row * kCols, red[1], lt);
}

int main()
{
    std::vector<float> h_x((size_t)kRows * kCols), h_y((size_t)kRows * kCols);
    for (size_t i = 0; i < h_x.size(); ++i)
        h_x[i] = std::sin(0.001f * (float)i) * 4.f;

    float *d_x, *d_y;
    cudaMalloc(&d_x, h_x.size() * sizeof(float));
    cudaMalloc(&d_y, h_y.size() * sizeof(float));
    cudaMemcpy(d_x, h_x.data(), h_x.size() * sizeof(float), cudaMemcpyHostToDevice);

    const dim3 grid(kRows / kRowsPerBlock);
    const dim3 block(kThreads);
    softmax_two_rows<<<grid, block>>>(d_x, d_y);
    cudaDeviceSynchronize();
    cudaMemcpy(h_y.data(), d_y, h_y.size() * sizeof(float), cudaMemcpyDeviceToHost);

    double row_sum = 0.0;
    for (int c = 0; c < kCols; ++c)
        row_sum += h_y[(size_t)5 * kCols + c];
    std::printf("sum of row 5 = %.6f (expected 1)\n", row_sum);

    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
