// Row softmax in ML-training style with dynamic shared memory: the launch's third argument
// sizes `extern __shared__ float red[]` to one float per thread. The block reduces the row's
// maximum, then reuses the same buffer to reduce the sum of exponentials; a barrier separates
// the last read of the maximum from the first store of the sums.
#include <cuda_runtime.h>
#include <cstdio>

#define COLS 1024

__global__ void softmaxRows(const float *x, float *y)
{
    extern __shared__ float red[];
    int row = blockIdx.x;
    int t = threadIdx.x;
    const float *in = x + row * COLS;
    float m = -1e30f;
    for (int c = t; c < COLS; c += blockDim.x)
        m = fmaxf(m, in[c]);
    red[t] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    float rowMax = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int c = t; c < COLS; c += blockDim.x)
        sum += expf(in[c] - rowMax);
    red[t] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] += red[t + s];
        __syncthreads();
    }
    float inv = 1.0f / red[0];
    for (int c = t; c < COLS; c += blockDim.x)
        y[row * COLS + c] = expf(in[c] - rowMax) * inv;
}

int main()
{
    const int rows = 4096;
    float *x, *y;
    cudaMalloc(&x, rows * COLS * sizeof(float));
    cudaMalloc(&y, rows * COLS * sizeof(float));
    dim3 block(256);
    dim3 grid(rows);
    size_t shmem = block.x * sizeof(float);
    softmaxRows<<<grid, block, shmem>>>(x, y);
    cudaDeviceSynchronize();
    printf("softmax done\n");
    return 0;
}
