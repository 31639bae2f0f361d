// Row-wise softmax of attention scores (ML training code style): one block per row, a fixed
// thread count shared by host and kernel through a constexpr, launched on a stream.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 128;

__global__ void softmax_rows(const float *x, float *y, int cols)
{
    __shared__ float red[kThreads];
    const float *row_in = x + blockIdx.x * cols;
    float *row_out = y + blockIdx.x * cols;

    float m = -1e30f;
    for (int c = threadIdx.x; c < cols; c += kThreads)
        m = fmaxf(m, row_in[c]);
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    float rmax = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += kThreads)
        sum += __expf(row_in[c] - rmax);
    red[threadIdx.x] = sum;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    float total = red[0];
    for (int c = threadIdx.x; c < cols; c += kThreads)
        row_out[c] = __expf(row_in[c] - rmax) / total;
}

void softmax_forward(const float *x, float *y, int rows, int cols, cudaStream_t stream)
{
    softmax_rows<<<rows, kThreads, 0, stream>>>(x, y, cols);
}

int main()
{
    int batch = 32, heads = 8, seq = 512;
    int rows = batch * heads * seq, cols = seq;
    float *x, *y;
    cudaMalloc(&x, (size_t)rows * cols * sizeof(float));
    cudaMalloc(&y, (size_t)rows * cols * sizeof(float));
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    softmax_forward(x, y, rows, cols, stream);
    cudaStreamSynchronize(stream);
    return 0;
}
