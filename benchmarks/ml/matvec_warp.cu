// y = A * x with one warp per row: x is staged once per block in shared memory, each lane forms
// a strided partial dot product, and the warp reduces its 32 partials in a shared slice with
// __syncwarp() between the halving steps.
#include <cuda_runtime.h>
#include <cstdio>

#define ROWS 8192
#define COLS 1024
#define BLOCK 256
#define WARP 32
#define ROWS_PER_BLOCK (BLOCK / WARP)

__global__ void matvecWarp(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y)
{
    __shared__ float sx[COLS];
    __shared__ float part[ROWS_PER_BLOCK][WARP];
    const int tid = threadIdx.x;
    const int lane = tid % WARP;
    const int warp = tid / WARP;
    const int row = blockIdx.x * ROWS_PER_BLOCK + warp;

    for (int c = tid; c < COLS; c += BLOCK)
        sx[c] = x[c];
    __syncthreads();

    float acc = 0.0f;
    for (int c = lane; c < COLS; c += WARP)
        acc += A[(size_t)row * COLS + c] * sx[c];
    part[warp][lane] = acc;
    __syncwarp();
    for (int s = WARP / 2; s > 0; s >>= 1) {
        if (lane < s)
            part[warp][lane] += part[warp][lane + s];
        __syncwarp();
    }
    if (lane == 0)
        y[row] = part[warp][0];
}

int main()
{
    float *d_a, *d_x, *d_y;
    cudaMalloc(&d_a, (size_t)ROWS * COLS * sizeof(float));
    cudaMalloc(&d_x, COLS * sizeof(float));
    cudaMalloc(&d_y, ROWS * sizeof(float));
    cudaMemset(d_a, 0, (size_t)ROWS * COLS * sizeof(float));
    cudaMemset(d_x, 0, COLS * sizeof(float));
    matvecWarp<<<ROWS / ROWS_PER_BLOCK, BLOCK>>>(d_a, d_x, d_y);
    cudaDeviceSynchronize();
    printf("matvec_warp done\n");
    cudaFree(d_a);
    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
