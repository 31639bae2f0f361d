// SAXPY behind a small host wrapper, the way libraries hide their launches: the wrapper picks
// the block size, main only calls the wrapper.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t e_ = (call);                                                  \
        if (e_ != cudaSuccess) {                                                  \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

__global__ void saxpy_kernel(int n, float a, const float *x, float *y)
{
    // Each block handles a contiguous chunk of 128 elements.
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

static void saxpy(int n, float a, const float *x, float *y, cudaStream_t stream)
{
    const int block = 128;
    int grid = (n + block - 1) / block;
    saxpy_kernel<<<grid, block, 0, stream>>>(n, a, x, y);
    CUDA_CHECK(cudaGetLastError());
}

int main()
{
    const int n = 1 << 22;
    std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
    float *x, *y;
    CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    cudaStream_t s;
    cudaStreamCreate(&s);
    saxpy(n, 2.0f, x, y, s);
    saxpy(n, 0.5f, x, y, s);
    CUDA_CHECK(cudaStreamSynchronize(s));
    printf("ok\n");
    return 0;
}
