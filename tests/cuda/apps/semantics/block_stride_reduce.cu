// Row sums of a matrix, one block per row: each thread accumulates a block-stride slice of the
// row, then a shared-memory tree reduction (the style of softmax / layer-norm kernels).
#include <cuda_runtime.h>

const int kThreads = 128;

__global__ void row_sum(const float *mat, float *sums, int cols)
{
    __shared__ float partial[kThreads];
    const float *row = mat + blockIdx.x * cols;
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        acc += row[c];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        sums[blockIdx.x] = partial[0];
}

int main()
{
    int rows = 4096, cols = 1000;
    float *m, *s;
    cudaMalloc(&m, rows * cols * sizeof(float));
    cudaMalloc(&s, rows * sizeof(float));
    row_sum<<<rows, kThreads>>>(m, s, cols);
    cudaDeviceSynchronize();
    return 0;
}
