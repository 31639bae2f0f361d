// Row-wise softmax, one block per row (the classic ML-training kernel before warp-level
// reductions): block-stride passes for the max, the sum of exponentials and the normalization,
// each reduced in shared memory.
#include <cuda_runtime.h>
#include <float.h>

#define THREADS 256

__global__ void softmax_rows(const float *logits, float *probs, int cols)
{
    __shared__ float red[THREADS];
    int row = blockIdx.x;
    const float *in = logits + row * cols;
    float m = -FLT_MAX;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, in[c]);
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    float row_max = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        sum += expf(in[c] - row_max);
    red[threadIdx.x] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    float total = red[0];
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        probs[row * cols + c] = expf(in[c] - row_max) / total;
}

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : 4096;
    int cols = argc > 2 ? atoi(argv[2]) : 1000;
    float *x, *p;
    cudaMalloc(&x, rows * cols * sizeof(float));
    cudaMalloc(&p, rows * cols * sizeof(float));
    softmax_rows<<<rows, THREADS>>>(x, p, cols);
    cudaDeviceSynchronize();
    return 0;
}
