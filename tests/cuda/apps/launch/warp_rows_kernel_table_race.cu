// Row sums with one warp per row: main launches with <<<>>> and 32 threads, but a benchmark
// path launches the same kernel from a table of kernels through cudaLaunchKernel with 64 threads
// per block.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void row_sums(const float *m, float *sums, int cols)
{
    __shared__ float part[32];
    int row = blockIdx.x;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += 32)
        s += m[row * cols + c];
    part[threadIdx.x % 32] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.0f;
        for (int i = 0; i < 32; ++i)
            t += part[i];
        sums[row] = t;
    }
}

int main(int argc, char **argv)
{
    int rows = 1024, cols = 4096;
    float *m, *sums;
    cudaMalloc(&m, rows * cols * sizeof(float));
    cudaMalloc(&sums, rows * sizeof(float));
    row_sums<<<rows, 32>>>(m, sums, cols);
    if (argc > 1) {
        const void *variants[] = {(const void *)row_sums};
        void *args[] = {&m, &sums, &cols};
        cudaLaunchKernel(variants[0], dim3(rows), dim3(64), args, 0, 0);
    }
    cudaDeviceSynchronize();
    return 0;
}
