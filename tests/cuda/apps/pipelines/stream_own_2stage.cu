// Streaming SAXPY (y = a*x + y) with a two-stage prefetch of x through shared memory using the
// primitive pipeline API: while chunk c is consumed, chunk c+1 is in flight. Every thread
// copies and later reads only its own 4-float slot of each stage, so its own
// __pipeline_wait_prior covers everything it reads, and refilling a slot only ever follows the
// same thread's reads of it in program order: the kernel needs no barrier at all.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

#define THREADS 128
#define VEC 4
#define CHUNK (THREADS * VEC)       // floats per block and step
#define CHUNKS_PER_BLOCK 32

__global__ void saxpyStream(const float *__restrict__ x, float *__restrict__ y, float a,
                            int chunksPerBlock)
{
    __shared__ __align__(16) float xs[2][CHUNK];
    const int tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * chunksPerBlock * CHUNK;

    __pipeline_memcpy_async(&xs[0][tid * VEC], x + base + tid * VEC, sizeof(float4));
    __pipeline_commit();

#pragma unroll 1
    for (int c = 0; c < chunksPerBlock; ++c) {
        const int cur = c & 1;
        if (c + 1 < chunksPerBlock)
            __pipeline_memcpy_async(&xs[cur ^ 1][tid * VEC],
                                    x + base + (size_t)(c + 1) * CHUNK + tid * VEC, sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);

        float *yp = y + base + (size_t)c * CHUNK + tid * VEC;
#pragma unroll
        for (int v = 0; v < VEC; ++v)
            yp[v] = a * xs[cur][tid * VEC + v] + yp[v];
    }
}

int main()
{
    const int blocks = 1024;
    const size_t n = (size_t)blocks * CHUNKS_PER_BLOCK * CHUNK;
    float *hx = (float *)malloc(n * sizeof(float));
    float *hy = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; ++i) {
        hx[i] = 1.0f;
        hy[i] = 2.0f;
    }

    float *dx, *dy;
    cudaMalloc((void **)&dx, n * sizeof(float));
    cudaMalloc((void **)&dy, n * sizeof(float));
    cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice);

    dim3 block(THREADS);
    dim3 grid(blocks);
    saxpyStream<<<grid, block, 0>>>(dx, dy, 3.0f, CHUNKS_PER_BLOCK);
    cudaDeviceSynchronize();
    cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("y[0] = %f (expected 5.0)\n", hy[0]);

    cudaFree(dx);
    cudaFree(dy);
    free(hx);
    free(hy);
    return 0;
}
