// Row-wise softmax, one block per row: a shared-memory tree reduction for the row maximum, then
// a second one (reusing the same buffer) for the sum of exponentials.
#include <cuda_runtime.h>
#include <cstdio>

#define ROWS 4096
#define COLS 1024
#define BLOCK 256

__global__ void softmaxRow(const float *__restrict__ x, float *__restrict__ y)
{
    __shared__ float red[BLOCK];
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    const float *xr = x + (size_t)row * COLS;
    float *yr = y + (size_t)row * COLS;

    float m = -INFINITY;
    for (int c = tid; c < COLS; c += BLOCK)
        m = fmaxf(m, xr[c]);
    red[tid] = m;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] = fmaxf(red[tid], red[tid + s]);
        __syncthreads();
    }
    const float rowMax = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int c = tid; c < COLS; c += BLOCK)
        sum += __expf(xr[c] - rowMax);
    red[tid] = sum;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }
    const float inv = 1.0f / red[0];

    for (int c = tid; c < COLS; c += BLOCK)
        yr[c] = __expf(xr[c] - rowMax) * inv;
}

int main()
{
    float *d_x, *d_y;
    cudaMalloc(&d_x, (size_t)ROWS * COLS * sizeof(float));
    cudaMalloc(&d_y, (size_t)ROWS * COLS * sizeof(float));
    cudaMemset(d_x, 0, (size_t)ROWS * COLS * sizeof(float));
    softmaxRow<<<ROWS, BLOCK>>>(d_x, d_y);
    cudaDeviceSynchronize();
    printf("softmax_row done\n");
    cudaFree(d_x);
    cudaFree(d_y);
    return 0;
}
