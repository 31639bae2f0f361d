// Scales a vector in a grid-stride loop, in the style of the CUDA samples' vectorAdd: the host
// allocates exactly n floats for each buffer and passes n, so the loop's guard keeps every
// access inside the allocations.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                             \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            return 1;                                                           \
        }                                                                       \
    } while (0)

__global__ void scaleVector(const float *src, float *dst, float alpha, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        dst[i] = alpha * src[i];
}

int main()
{
    const int numElements = 50000;
    size_t bytes = numElements * sizeof(float);
    float *d_src = nullptr, *d_dst = nullptr;
    CHECK(cudaMalloc((void **)&d_src, bytes));
    CHECK(cudaMalloc((void **)&d_dst, bytes));
    int threadsPerBlock = 256;
    int blocksPerGrid = 64;
    scaleVector<<<blocksPerGrid, threadsPerBlock>>>(d_src, d_dst, 2.0f, numElements);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    cudaFree(d_src);
    cudaFree(d_dst);
    return 0;
}
