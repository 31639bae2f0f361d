//--blockDim=256 --gridDim=512
#include <math.h>

// Row-wise softmax, one block per row of 1024 logits: max reduction, exp and sum reduction.
#define COLS 1024
#define THREADS 256

__global__ void softmaxRow(const float *__restrict__ x, float *__restrict__ y)
{
    __shared__ float red[THREADS];
    const float *row = x + blockIdx.x * COLS;
    float *out = y + blockIdx.x * COLS;
    int t = threadIdx.x;

    float m = -INFINITY;
    for (int c = t; c < COLS; c += THREADS)
        m = fmaxf(m, row[c]);
    red[t] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    float rowMax = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int c = t; c < COLS; c += THREADS)
        sum += __expf(row[c] - rowMax);
    red[t] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] += red[t + s];
        __syncthreads();
    }
    float inv = 1.0f / red[0];
    for (int c = t; c < COLS; c += THREADS)
        out[c] = __expf(row[c] - rowMax) * inv;
}
