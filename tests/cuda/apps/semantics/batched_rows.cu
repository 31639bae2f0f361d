// A batched element-wise kernel over a 2-D grid of blocks flattened into one block index, the
// style of older code written before 1-D grids could exceed 65535 blocks.
#include <cuda_runtime.h>

#define THREADS 256

__global__ void scale_batched(float *data, float alpha, int total)
{
    int block = blockIdx.y * gridDim.x + blockIdx.x;
    int i = block * blockDim.x + threadIdx.x;
    if (i < total)
        data[i] *= alpha;
}

int main()
{
    int total = 50000000;
    float *d;
    cudaMalloc(&d, total * sizeof(float));
    int blocks = (total + THREADS - 1) / THREADS;
    dim3 grid(65535, (blocks + 65534) / 65535);
    scale_batched<<<grid, THREADS>>>(d, 0.5f, total);
    cudaDeviceSynchronize();
    return 0;
}
