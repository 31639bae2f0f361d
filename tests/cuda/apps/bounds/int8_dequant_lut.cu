// Dequantization of int8 activations through a shared lookup table (the int8 inference style):
// each block builds the 256 values a byte can stand for, one per thread, then every thread maps
// its byte through the table. The byte is signed (-128..127), so the table is indexed by
// `v + 128`.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 16

__global__ void dequant(const int8_t *q, float *out, float scale, int n)
{
    __shared__ float lut[256];
    lut[threadIdx.x] = scale * (float)((int)threadIdx.x - 128);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int8_t v = q[i];
        out[i] = lut[v + 128];
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
