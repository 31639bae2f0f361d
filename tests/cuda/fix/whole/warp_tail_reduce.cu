// Block-wise sum with a tree in shared memory down to one warp, then the last warp alone.
// The last warp used to rely on lock-step execution (no barrier): since Volta, lanes of a warp
// run independently, so its steps race. `fix` puts `__syncwarp()` between them.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void reduceWarpTail(const float *g_in, float *g_out, unsigned int n)
{
    __shared__ float sdata[THREADS];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;

    float sum = (i < n) ? g_in[i] : 0.0f;
    if (i + blockDim.x < n)
        sum += g_in[i + blockDim.x];
    sdata[tid] = sum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = sum = sum + sdata[tid + s];
        __syncthreads();
    }

    if (tid < 32) {
        for (int offset = 32; offset > 0; offset >>= 1) {
            sum += sdata[tid + offset];
            sdata[tid] = sum;
        }
    }
    if (tid == 0)
        g_out[blockIdx.x] = sum;
}

int main(int argc, char **argv)
{
    unsigned int n = 1u << 22;
    size_t bytes = n * sizeof(float);
    float *h_in = (float *)malloc(bytes);
    for (unsigned int i = 0; i < n; ++i)
        h_in[i] = 1.0f;

    float *d_in, *d_out;
    dim3 block(THREADS);
    dim3 grid(n / (THREADS * 2));
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, grid.x * sizeof(float));
    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);

    reduceWarpTail<<<grid, block>>>(d_in, d_out, n);

    float *h_out = (float *)malloc(grid.x * sizeof(float));
    cudaMemcpy(h_out, d_out, grid.x * sizeof(float), cudaMemcpyDeviceToHost);
    double total = 0;
    for (unsigned int b = 0; b < grid.x; ++b)
        total += h_out[b];
    printf("sum = %.0f (expected %u)\n", total, n);

    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}
