// Block-local Jacobi smoothing of a 1-D signal (Rodinia style): the block's segment lives in
// two shared buffers used as ping-pong, selected through pointers that are swapped after every
// sweep; the ends of the segment are held at zero.
#include <cstdio>
#include <cuda_runtime.h>

#define SEG 256
#define SWEEPS 8

__global__ void jacobi1d(const float *in, float *out)
{
    __shared__ float bufA[SEG + 2];
    __shared__ float bufB[SEG + 2];
    float *cur = bufA, *nxt = bufB;
    int t = threadIdx.x;
    const float *src = in + blockIdx.x * SEG;
    cur[t + 1] = src[t];
    if (t == 0) { bufA[0] = 0.f; bufB[0] = 0.f; }
    if (t == SEG - 1) { bufA[SEG + 1] = 0.f; bufB[SEG + 1] = 0.f; }
    __syncthreads();
    for (int k = 0; k < SWEEPS; ++k) {
        nxt[t + 1] = 0.5f * cur[t + 1] + 0.25f * (cur[t] + cur[t + 2]);
        __syncthreads();
        float *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    out[blockIdx.x * SEG + t] = cur[t + 1];
}

int main()
{
    const int blocks = 4096, n = blocks * SEG;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemset(d_in, 0, n * sizeof(float));
    jacobi1d<<<blocks, SEG>>>(d_in, d_out);
    float h;
    cudaMemcpy(&h, d_out, sizeof(float), cudaMemcpyDeviceToHost);
    printf("out[0] = %f\n", h);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
