// Row softmax, one block of 256 threads per row of 1024 floats. The row is staged in shared
// memory with one 16-byte __pipeline_memcpy_async per thread; the max and the sum are then
// reduced with the classic shared-memory tree (a barrier after every step) and the row is
// normalized from shared memory. Reads are strided (element tid + k*256), so each thread mostly
// reads elements that other threads copied.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_pipeline.h>

#define ROWS 4096
#define COLS 1024
#define THREADS 256

__global__ void softmaxRowAsync(const float *__restrict__ x, float *__restrict__ y)
{
    __shared__ __align__(16) float rowBuf[COLS];
    __shared__ float red[THREADS];

    const int tid = threadIdx.x;
    const float *src = x + (size_t)blockIdx.x * COLS;
    float *dst = y + (size_t)blockIdx.x * COLS;

    __pipeline_memcpy_async(&rowBuf[4 * tid], &src[4 * tid], 4 * sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();

    // Max.
    float m = -INFINITY;
    for (int i = tid; i < COLS; i += THREADS)
        m = fmaxf(m, rowBuf[i]);
    red[tid] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] = fmaxf(red[tid], red[tid + s]);
        __syncthreads();
    }
    const float rowMax = red[0];
    __syncthreads();   // everyone has read red[0] before red is reused

    // Sum of exponentials.
    float sum = 0.0f;
    for (int i = tid; i < COLS; i += THREADS)
        sum += __expf(rowBuf[i] - rowMax);
    red[tid] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }
    const float inv = 1.0f / red[0];

    for (int i = tid; i < COLS; i += THREADS)
        dst[i] = __expf(rowBuf[i] - rowMax) * inv;
}

int main()
{
    const size_t n = (size_t)ROWS * COLS;
    float *hx = (float *)malloc(n * sizeof(float));
    float *hy = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; ++i)
        hx[i] = sinf(0.001f * (float)i);

    float *dx, *dy;
    cudaMalloc((void **)&dx, n * sizeof(float));
    cudaMalloc((void **)&dy, n * sizeof(float));
    cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice);

    softmaxRowAsync<<<ROWS, THREADS>>>(dx, dy);
    cudaDeviceSynchronize();
    cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost);

    double total = 0.0;
    for (int j = 0; j < COLS; ++j)
        total += hy[j];
    printf("row 0 sums to %f\n", total);

    cudaFree(dx);
    cudaFree(dy);
    free(hx);
    free(hy);
    return 0;
}
