//--blockDim=256 --gridDim=32
#include <cuda_runtime.h>
#include <stdio.h>

// Adjacent difference, with a debug print from the first thread.
__global__ void adjacentDiff(const int *in, int *out)
{
    __shared__ int tile[257];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x + 1] = in[g];
    if (threadIdx.x == 0)
        tile[0] = blockIdx.x > 0 ? in[g - 1] : 0;
    __syncthreads();
    out[g] = tile[threadIdx.x + 1] - tile[threadIdx.x];
    if (g == 0)
        printf("first difference %d\n", out[0]);
}
