// Mixed-precision ML helper: an fp16 activation is scaled, a bf16 copy is written for the next
// layer, and pairs of halves are added with the half2 intrinsics; a shared fp16 tile gives each
// thread its neighbour's value (a 1-D stencil).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void scaleHalf(const half *act, __nv_bfloat16 *out_bf, half2 *pairs, half *smooth, int n, float scale)
{
    __shared__ half tile[BLOCK + 1];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    half h = (i < n) ? act[i] : __float2half(0.0f);
    tile[threadIdx.x] = h;
    if (threadIdx.x == 0)
        tile[BLOCK] = (i + BLOCK < n) ? act[i + BLOCK] : __float2half(0.0f);
    __syncthreads();
    if (i < n) {
        float f = __half2float(h) * scale;
        out_bf[i] = __float2bfloat16(f);
        half2 p = pairs[i];
        pairs[i] = __hadd2(p, __floats2half2_rn(f, f));
        smooth[i] = __hadd(tile[threadIdx.x], tile[threadIdx.x + 1]);
    }
}

int main()
{
    const int n = 1 << 18;
    half *act, *smooth;
    __nv_bfloat16 *out_bf;
    half2 *pairs;
    cudaMalloc(&act, n * sizeof(half));
    cudaMalloc(&smooth, n * sizeof(half));
    cudaMalloc(&out_bf, n * sizeof(__nv_bfloat16));
    cudaMalloc(&pairs, n * sizeof(half2));
    scaleHalf<<<n / BLOCK, BLOCK>>>(act, out_bf, pairs, smooth, n, 0.5f);
    cudaDeviceSynchronize();
    return 0;
}
