// int8_dequant_lut written as if the bytes were never negative: a 128-entry table indexed by the
// byte itself. The host's data hold negative values (-128..127), and a negative byte indexes
// before the table.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 128
#define BLOCKS 32

__global__ void dequant(const int8_t *q, float *out, float scale, int n)
{
    __shared__ float lut[128];
    lut[threadIdx.x] = scale * (float)threadIdx.x;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int8_t v = q[i];
        out[i] = lut[v];
    }
}

int main()
{
    const int n = THREADS * BLOCKS;
    int8_t h[n];
    for (int i = 0; i < n; i++)
        h[i] = (int8_t)(i % 256 - 128);
    int8_t *q;
    float *out;
    cudaMalloc(&q, n * sizeof(int8_t));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(q, h, n * sizeof(int8_t), cudaMemcpyHostToDevice);
    dequant<<<BLOCKS, THREADS>>>(q, out, 0.05f, n);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
