// The same grid-stride scale, but the destination was allocated for the padded-away length:
// the host passes the full element count while dst holds 49,920 floats (195 blocks of 256),
// so the last 80 elements are written past the end of the allocation.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scaleVector(const float *src, float *dst, float alpha, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        dst[i] = alpha * src[i];
}

int main()
{
    const int numElements = 50000;
    const int threadsPerBlock = 256;
    const int fullBlocks = numElements / threadsPerBlock;
    float *d_src, *d_dst;
    cudaMalloc(&d_src, numElements * sizeof(float));
    cudaMalloc(&d_dst, fullBlocks * threadsPerBlock * sizeof(float));
    scaleVector<<<64, threadsPerBlock>>>(d_src, d_dst, 2.0f, numElements);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
