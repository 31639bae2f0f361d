// A tiled loop whose threads past `n` leave early: the barrier in the loop is then reached by
// only some threads. The report names the thread-dependent exit (`return;`), not the loop.
#include <cuda_runtime.h>

__global__ void scaleTiles(float *data, int n, int tiles)
{
    __shared__ float tile[64];
    for (int t = 0; t < tiles; t++) {
        if (threadIdx.x >= n)
            return;
        tile[threadIdx.x] = data[t * 64 + threadIdx.x];
        __syncthreads();
        data[t * 64 + threadIdx.x] = 2.0f * tile[63 - threadIdx.x];
        __syncthreads();
    }
}

int main()
{
    float *d;
    cudaMalloc(&d, 64 * 16 * sizeof(float));
    scaleTiles<<<1, 64>>>(d, 48, 16);
    cudaDeviceSynchronize();
    return 0;
}
