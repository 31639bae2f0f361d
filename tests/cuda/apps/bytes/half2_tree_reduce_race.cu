// Block sum of an fp16 vector through a half2 view of shared memory (textbook tree reduction):
// each thread loads two halves as one half2 word, the block folds the 256 words in halves,
// and thread 0 adds the two lanes of the last word into the block's partial sum. Bug: the
// barrier at the end of each round was dropped ("each round only touches the lower half").
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define THREADS 256

__global__ void sum_half2(const half *x, float *partial)
{
    __shared__ half smem[2 * THREADS];
    half2 *s2 = reinterpret_cast<half2 *>(smem);
    const unsigned int t = threadIdx.x;
    const unsigned int i = blockIdx.x * (2 * THREADS) + 2 * t;

    s2[t] = *reinterpret_cast<const half2 *>(&x[i]);
    __syncthreads();
    for (unsigned int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s)
            s2[t] = __hadd2(s2[t], s2[t + s]);
    }
    if (t == 0) {
        float2 f = __half22float2(s2[0]);
        partial[blockIdx.x] = f.x + f.y;
    }
}

int main()
{
    const int n = 1 << 21;
    const int blocks = n / (2 * THREADS);
    half *dx;
    float *dp;
    cudaMalloc(&dx, n * sizeof(half));
    cudaMalloc(&dp, blocks * sizeof(float));
    cudaMemset(dx, 0, n * sizeof(half));
    sum_half2<<<blocks, THREADS>>>(dx, dp);
    float first;
    cudaMemcpy(&first, dp, sizeof(float), cudaMemcpyDeviceToHost);
    printf("partial[0] = %f\n", first);
    cudaFree(dx);
    cudaFree(dp);
    return 0;
}
