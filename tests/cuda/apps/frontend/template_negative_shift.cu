// A rotate-by-SHIFT kernel from a signal-processing code base: the shift is a template value
// parameter, negative for a rotation to the left, and the padded tile's size depends on it.
#include <cstdio>
#include <cuda_runtime.h>

template <int SHIFT, int WIDTH>
__global__ void rotate_rows(float *out, const float *in)
{
    // One spare slot per step of a left rotation (SHIFT < 0): WIDTH - SHIFT elements.
    __shared__ float tile[WIDTH - SHIFT];
    const int row = blockIdx.x * WIDTH;
    tile[threadIdx.x] = in[row + threadIdx.x];
    if (threadIdx.x < -SHIFT)
        tile[WIDTH + threadIdx.x] = in[row + threadIdx.x];
    __syncthreads();
    out[row + threadIdx.x] = tile[threadIdx.x - SHIFT];
}

int main()
{
    const int rows = 128;
    float *d_in, *d_out;
    cudaMalloc(&d_in, rows * 64 * sizeof(float));
    cudaMalloc(&d_out, rows * 64 * sizeof(float));
    rotate_rows<-3, 64><<<rows, 64>>>(d_out, d_in);
    cudaDeviceSynchronize();
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
