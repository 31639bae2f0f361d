// Variant of stencil1d_halo.cu: no barrier after cp.async.wait_all.
// 1-D stencil (9-point weighted average) in the style of the classic "shared memory with halo"
// teaching example, with the tile and its halo fetched by cp.async (4-byte .ca copies).
// The input carries RADIUS padding elements on each side, so block b reads
// in[b*BLOCK_SIZE .. b*BLOCK_SIZE + BLOCK_SIZE + 2*RADIUS) and writes out[b*BLOCK_SIZE + tid].
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define RADIUS 4
#define BLOCK_SIZE 128
#define NUM_ELEMENTS (1 << 20)

__constant__ float c_weights[2 * RADIUS + 1];

__device__ __forceinline__ void async_copy_f32(float *dst, const float *src)
{
    unsigned int s = (unsigned int)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(src));
}

__device__ __forceinline__ void async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

__device__ __forceinline__ void async_wait_all()
{
    asm volatile("cp.async.wait_all;\n" ::);
}

__global__ void stencil1d(const float *in, float *out)
{
    __shared__ float temp[BLOCK_SIZE + 2 * RADIUS];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * BLOCK_SIZE;

    // temp[i] = in[base + i]: thread tid copies i = tid, and the first 2*RADIUS threads also
    // the right halo i = BLOCK_SIZE + tid.
    async_copy_f32(&temp[tid], &in[base + tid]);
    if (tid < 2 * RADIUS)
        async_copy_f32(&temp[BLOCK_SIZE + tid], &in[base + BLOCK_SIZE + tid]);
    async_commit();
    async_wait_all();

    float result = 0.0f;
#pragma unroll
    for (int k = 0; k <= 2 * RADIUS; ++k)
        result += c_weights[k] * temp[tid + k];
    out[base + tid] = result;
}

int main(void)
{
    const int n = NUM_ELEMENTS;
    const int padded = n + 2 * RADIUS;
    float h_w[2 * RADIUS + 1];
    for (int k = 0; k <= 2 * RADIUS; ++k)
        h_w[k] = 1.0f / (2 * RADIUS + 1);
    cudaMemcpyToSymbol(c_weights, h_w, sizeof(h_w));

    float *h_in = (float *)malloc(padded * sizeof(float));
    for (int i = 0; i < padded; ++i)
        h_in[i] = (float)(i % 100);

    float *d_in, *d_out;
    cudaMalloc((void **)&d_in, padded * sizeof(float));
    cudaMalloc((void **)&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h_in, padded * sizeof(float), cudaMemcpyHostToDevice);

    stencil1d<<<n / BLOCK_SIZE, BLOCK_SIZE>>>(d_in, d_out);
    cudaDeviceSynchronize();

    float h_out[4];
    cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
    printf("out[0..3] = %f %f %f %f\n", h_out[0], h_out[1], h_out[2], h_out[3]);

    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    return 0;
}
