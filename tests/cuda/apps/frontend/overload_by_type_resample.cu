// Linear resampling of a signal by a fractional offset, in the style of an image-processing
// library's device helpers: `clampv` and `blend` are overloaded by parameter type (int/float and
// float/float4 versions of the same arity), as C++ code writes them. Each block stages its
// window of samples plus one halo sample in shared memory, clamping the global index with the
// int overload; after the barrier each thread blends its sample with its right neighbour.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256

__device__ __forceinline__ int clampv(int x, int lo, int hi)
{
    return max(lo, min(x, hi));
}

__device__ __forceinline__ float clampv(float x, float lo, float hi)
{
    return fmaxf(lo, fminf(x, hi));
}

__device__ __forceinline__ float blend(float a, float b, float t)
{
    return a + t * (b - a);
}

__device__ __forceinline__ float4 blend(float4 a, float4 b, float t)
{
    return make_float4(blend(a.x, b.x, t), blend(a.y, b.y, t), blend(a.z, b.z, t),
                       blend(a.w, b.w, t));
}

__global__ void resampleShift(const float4 *in, float4 *out, float shift, int n)
{
    __shared__ float4 window[BLOCK + 1];
    int tid = threadIdx.x;
    int base = blockIdx.x * BLOCK;
    window[tid] = in[clampv(base + tid, 0, n - 1)];
    if (tid == 0)
        window[BLOCK] = in[clampv(base + BLOCK, 0, n - 1)];
    __syncthreads();
    float t = clampv(shift, 0.0f, 1.0f);
    float4 here = window[tid];
    float4 next = window[clampv(tid + 1, 0, BLOCK)];
    if (base + tid < n)
        out[base + tid] = blend(here, next, t);
}

int main()
{
    const int n = 1 << 20;
    float4 *d_in, *d_out;
    cudaMalloc((void **)&d_in, n * sizeof(float4));
    cudaMalloc((void **)&d_out, n * sizeof(float4));
    dim3 block(BLOCK);
    dim3 grid((n + BLOCK - 1) / BLOCK);
    resampleShift<<<grid, block>>>(d_in, d_out, 0.25f, n);
    cudaError_t err = cudaDeviceSynchronize();
    printf("resample: %s\n", cudaGetErrorString(err));
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
