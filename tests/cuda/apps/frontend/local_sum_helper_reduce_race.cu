// Sum of squares in the SDK reduction style: a grid-stride loop whose condition is a device
// function (`inRange(i, n)`), a helper that accumulates into the caller's local through a
// pointer (`accumulateSquare(&localSum, x)`), then the block's tree reduction in shared memory
// and one atomicAdd per block into the result. The bug: the barrier inside the tree loop is
// missing, so a level reads partial sums the previous level has not finished writing.
#include <cuda_runtime.h>
#include <cstdio>

#define THREADS 256

__device__ __forceinline__ bool inRange(int i, int n) { return i < n; }

__device__ void accumulateSquare(float *acc, float x)
{
    *acc += x * x;
}

__global__ void sumOfSquares(const float *in, float *result, int n)
{
    __shared__ float partial[THREADS];
    unsigned tid = threadIdx.x;
    float localSum = 0.0f;
    for (int i = blockIdx.x * THREADS + tid; inRange(i, n); i += THREADS * gridDim.x) {
        accumulateSquare(&localSum, in[i]);
    }
    partial[tid] = localSum;
    __syncthreads();
    for (unsigned s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) {
            partial[tid] += partial[tid + s];
        }
    }
    if (tid == 0) {
        atomicAdd(result, partial[0]);
    }
}

int main()
{
    const int n = 1 << 22;
    float *in, *result;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&result, sizeof(float));
    cudaMemset(result, 0, sizeof(float));
    dim3 threads(THREADS);
    dim3 blocks(128);
    sumOfSquares<<<blocks, threads>>>(in, result, n);
    float h = 0.0f;
    cudaMemcpy(&h, result, sizeof(float), cudaMemcpyDeviceToHost);
    printf("%f\n", h);
    return 0;
}
