// 1-D seven-point stencil: each block stages its 256 points plus a halo of 3 on each side in
// shared memory, then averages. The barrier between staging and reading is missing.
#include <cuda_runtime.h>

#define RADIUS 3
#define BLOCK 256

__global__ void stencil1d(const float *in, float *out, int n)
{
    __shared__ float window[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * BLOCK + threadIdx.x;
    int l = threadIdx.x + RADIUS;

    window[l] = in[g + RADIUS];
    if (threadIdx.x < RADIUS) {
        window[l - RADIUS] = in[g];
        window[l + BLOCK] = in[g + RADIUS + BLOCK];
    }
    __syncthreads();

    float sum = 0.0f;
    for (int o = -RADIUS; o <= RADIUS; ++o)
        sum += window[l + o];
    out[g] = sum / (2 * RADIUS + 1);
}

int main()
{
    const int n = 1 << 20;
    float *d_in, *d_out;
    cudaMalloc(&d_in, (n + 2 * RADIUS) * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    dim3 block(BLOCK);
    dim3 grid(n / BLOCK);
    stencil1d<<<grid, block>>>(d_in, d_out, n);
    cudaDeviceSynchronize();
    return 0;
}
