// Elementwise GELU (tanh form) that stages its input through shared memory with cp.async:
// each thread copies one 16-byte vector (4 floats) of the block's 1024-float segment, waits for
// its own copies and reads back exactly those 4 floats. No barrier: a thread's wait covers the
// copies it issued itself, and no thread reads another thread's part of the segment.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define THREADS 256
#define VEC 4
#define SEG (THREADS * VEC)

__device__ __forceinline__ void copy_async_v4(float *dst_smem, const float *src_gmem)
{
    const unsigned addr = (unsigned)__cvta_generic_to_shared(dst_smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(addr), "l"(src_gmem));
}

__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;\n" ::); }

template <int N>
__device__ __forceinline__ void wait_copies() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

__device__ __forceinline__ float gelu_tanh(float v)
{
    const float k0 = 0.7978845608f;   // sqrt(2 / pi)
    const float k1 = 0.044715f;
    return 0.5f * v * (1.0f + tanhf(k0 * (v + k1 * v * v * v)));
}

__global__ void geluStaged(const float *__restrict__ x, float *__restrict__ y)
{
    __shared__ __align__(16) float seg[SEG];
    const int tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * SEG;

    copy_async_v4(&seg[tid * VEC], x + base + tid * VEC);
    commit_copies();
    wait_copies<0>();

#pragma unroll
    for (int k = 0; k < VEC; ++k)
        y[base + tid * VEC + k] = gelu_tanh(seg[tid * VEC + k]);
}

int main()
{
    const int blocks = 4096;
    const size_t n = (size_t)blocks * SEG;
    float *hx = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; ++i)
        hx[i] = -4.0f + 8.0f * (float)(i % 1000) / 1000.0f;

    float *dx = nullptr, *dy = nullptr;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice);

    geluStaged<<<blocks, THREADS, 0>>>(dx, dy);
    cudaDeviceSynchronize();

    float probe[2];
    cudaMemcpy(probe, dy, sizeof(probe), cudaMemcpyDeviceToHost);
    printf("gelu(%f) = %f\n", hx[0], probe[0]);

    cudaFree(dx);
    cudaFree(dy);
    free(hx);
    return 0;
}
