// Row sums of a matrix in the style of ML training code (a LayerNorm/softmax pre-pass): the
// accumulator type comes from a trait class, `float` for half-precision inputs and the input
// type otherwise, and one block reduces one row in shared memory.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

template <typename T> struct AccType { typedef T type; };
template <> struct AccType<__half> { typedef float type; };

template <typename T, int BLOCK>
__global__ void rowSum(const T *x, T *y, int cols)
{
    typedef typename AccType<T>::type acc_t;
    __shared__ acc_t partial[BLOCK];
    const T *row = x + blockIdx.x * cols;
    acc_t sum = 0;
    for (int c = threadIdx.x; c < cols; c += BLOCK)
        sum += (acc_t)row[c];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        y[blockIdx.x] = (T)partial[0];
}

int main()
{
    const int rows = 1024, cols = 4096;
    float *xf, *yf;
    __half *xh, *yh;
    cudaMalloc(&xf, rows * cols * sizeof(float));
    cudaMalloc(&yf, rows * sizeof(float));
    cudaMalloc(&xh, rows * cols * sizeof(__half));
    cudaMalloc(&yh, rows * sizeof(__half));
    rowSum<float, 256><<<rows, 256>>>(xf, yf, cols);
    rowSum<__half, 256><<<rows, 256>>>(xh, yh, cols);
    cudaDeviceSynchronize();
    return 0;
}
