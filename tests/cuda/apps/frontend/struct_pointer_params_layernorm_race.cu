// A layer-norm forward pass in the style of ML training code: the kernel takes its buffers and
// sizes in one parameter struct passed by value (inputs as float4 rows, gamma/beta, outputs and
// the per-row statistics). One block per row: a shared-memory tree reduction of the row's sum
// and sum of squares, then every thread normalizes its columns. The bug: thread 0 resets the
// shared sum while the other threads of its block still read it (no barrier between).
#include <cuda_runtime.h>
#include <cstdio>

#define THREADS 256
#define COLS4 192 // 768 features as float4

struct LayerNormParams {
    const float4 *x;      // rows * cols4 vectors
    const float *gamma;   // cols4 * 4
    const float *beta;    // cols4 * 4
    float4 *y;            // rows * cols4 vectors
    float *mean;          // rows
    float *rstd;          // rows
    int rows;
    float eps;
};

__global__ void layerNormForward(LayerNormParams p)
{
    __shared__ float s_sum[THREADS];
    __shared__ float s_sq[THREADS];
    int row = blockIdx.x;
    if (row >= p.rows)
        return;
    int tid = threadIdx.x;
    float sum = 0.0f, sq = 0.0f;
    for (int c = tid; c < COLS4; c += blockDim.x) {
        float4 v = p.x[row * COLS4 + c];
        sum += v.x + v.y + v.z + v.w;
        sq += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    s_sum[tid] = sum;
    s_sq[tid] = sq;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            s_sum[tid] += s_sum[tid + s];
            s_sq[tid] += s_sq[tid + s];
        }
        __syncthreads();
    }
    float n = 4.0f * COLS4;
    // BUG: thread 0 clears the partial sums for the next row before the others read them.
    if (tid == 0)
        s_sum[0] = 0.0f;
    float mu = s_sum[0] / n;
    float r = rsqrtf(s_sq[0] / n - mu * mu + p.eps);
    if (tid == 0) {
        p.mean[row] = mu;
        p.rstd[row] = r;
    }
    for (int c = tid; c < COLS4; c += blockDim.x) {
        float4 v = p.x[row * COLS4 + c];
        float4 o;
        o.x = (v.x - mu) * r * p.gamma[4 * c] + p.beta[4 * c];
        o.y = (v.y - mu) * r * p.gamma[4 * c + 1] + p.beta[4 * c + 1];
        o.z = (v.z - mu) * r * p.gamma[4 * c + 2] + p.beta[4 * c + 2];
        o.w = (v.w - mu) * r * p.gamma[4 * c + 3] + p.beta[4 * c + 3];
        p.y[row * COLS4 + c] = o;
    }
}

int main()
{
    const int rows = 1024, cols = 4 * COLS4;
    LayerNormParams p;
    cudaMalloc((void **)&p.x, rows * cols * sizeof(float));
    cudaMalloc((void **)&p.gamma, cols * sizeof(float));
    cudaMalloc((void **)&p.beta, cols * sizeof(float));
    cudaMalloc((void **)&p.y, rows * cols * sizeof(float));
    cudaMalloc((void **)&p.mean, rows * sizeof(float));
    cudaMalloc((void **)&p.rstd, rows * sizeof(float));
    p.rows = rows;
    p.eps = 1e-5f;
    dim3 grid(rows);
    dim3 block(THREADS);
    layerNormForward<<<grid, block>>>(p);
    cudaError_t err = cudaDeviceSynchronize();
    printf("layernorm: %s\n", cudaGetErrorString(err));
    return 0;
}
