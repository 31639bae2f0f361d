// Row normalization (layer-norm without affine, ML-training style): one block per row of 1024
// floats; each thread accumulates (sum, sum of squares) of its four elements, the block reduces
// the pairs through a float2 view of a float scratch array, and every thread normalizes. Bug:
// the barrier between storing the per-thread pairs and the first reduction round is missing.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256
#define COLS 1024

__global__ void row_normalize(const float *x, float *y, float eps)
{
    __shared__ float scratch[2 * THREADS];
    float2 *acc = reinterpret_cast<float2 *>(scratch);
    const int t = threadIdx.x;
    const size_t off = (size_t)blockIdx.x * COLS + 4 * t;

    float4 v = *reinterpret_cast<const float4 *>(x + off);
    float s = v.x + v.y + v.z + v.w;
    float q = v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    acc[t] = make_float2(s, q);
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (t < stride) {
            float2 o = acc[t + stride];
            acc[t].x += o.x;
            acc[t].y += o.y;
        }
        __syncthreads();
    }
    float2 tot = acc[0];
    float mean = tot.x / COLS;
    float rstd = rsqrtf(tot.y / COLS - mean * mean + eps);
    float4 r = make_float4((v.x - mean) * rstd, (v.y - mean) * rstd, (v.z - mean) * rstd, (v.w - mean) * rstd);
    *reinterpret_cast<float4 *>(y + off) = r;
}

int main()
{
    const int rows = 8192;
    const size_t bytes = (size_t)rows * COLS * sizeof(float);
    float *dx, *dy;
    cudaMalloc(&dx, bytes);
    cudaMalloc(&dy, bytes);
    cudaMemset(dx, 0, bytes);
    row_normalize<<<rows, THREADS>>>(dx, dy, 1e-5f);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}
