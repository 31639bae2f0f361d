// Two kernels share one device helper that stages values through shared memory with a
// 64-slot ring. The host launches `smoothSmall` with 64 threads and `smoothLarge` with 128:
// in the large launch, threads t and t + 64 write the same slot of `ring`.
#include <cstdio>
#include <cuda_runtime.h>

#define RING 64

__device__ float stage(float *ring, const float *in, int i)
{
    ring[threadIdx.x % RING] = in[i];
    // Reads the neighbour's slot: needs a barrier after the store.
    return ring[(threadIdx.x + 1) % RING];
}

__global__ void smoothSmall(const float *in, float *out)
{
    __shared__ float ring[RING];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = stage(ring, in, i);
}

__global__ void smoothLarge(const float *in, float *out)
{
    __shared__ float ring[RING];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 0.5f * stage(ring, in, i);
}

int main()
{
    const int n = 4096;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    smoothSmall<<<n / 64, 64>>>(d_in, d_out);
    smoothLarge<<<n / 128, 128>>>(d_in, d_out);
    cudaDeviceSynchronize();
    cudaFree(d_in);
    cudaFree(d_out);
    printf("done\n");
    return 0;
}
