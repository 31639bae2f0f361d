// Batched GEMV y[b] = A[b] * x[b]: blockIdx.y is the batch, each thread one row; x[b] is staged
// through shared memory in chunks of BLOCK columns.
#include <cuda_runtime.h>
#include <cstdio>

#define BATCH 32
#define ROWS 1024
#define COLS 1024
#define BLOCK 256

__global__ void batchedGemv(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y)
{
    __shared__ float sx[BLOCK];
    const int b = blockIdx.y;
    const int tid = threadIdx.x;
    const int row = blockIdx.x * BLOCK + tid;
    const float *Ab = A + (size_t)b * ROWS * COLS;
    const float *xb = x + (size_t)b * COLS;

    float acc = 0.0f;
    for (int k0 = 0; k0 < COLS; k0 += BLOCK) {
        sx[tid] = xb[k0 + tid];
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < BLOCK; ++k)
            acc += Ab[(size_t)row * COLS + k0 + k] * sx[k];
        __syncthreads();
    }
    y[(size_t)b * ROWS + row] = acc;
}

int main()
{
    float *d_a, *d_x, *d_y;
    cudaMalloc(&d_a, (size_t)BATCH * ROWS * COLS * sizeof(float));
    cudaMalloc(&d_x, (size_t)BATCH * COLS * sizeof(float));
    cudaMalloc(&d_y, (size_t)BATCH * ROWS * sizeof(float));
    cudaMemset(d_a, 0, (size_t)BATCH * ROWS * COLS * sizeof(float));
    cudaMemset(d_x, 0, (size_t)BATCH * COLS * sizeof(float));
    dim3 grid(ROWS / BLOCK, BATCH);
    batchedGemv<<<grid, BLOCK>>>(d_a, d_x, d_y);
    cudaDeviceSynchronize();
    printf("batched_gemv done\n");
    cudaFree(d_a);
    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
