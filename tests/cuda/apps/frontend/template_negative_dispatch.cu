// An in-place row rotation from a signal-processing code base. The direction is chosen at compile
// time from the sign of the template shift: a left rotation (SHIFT < 0) takes the fast path,
// which forgot the barrier between reading a neighbour's slot and overwriting its own.
#include <cstdio>
#include <cuda_runtime.h>

template <bool LEFT, int WIDTH>
__device__ void rotate_in_place(float *tile, int amount)
{
    const float mine = tile[threadIdx.x];
    if (LEFT) {
        // Fast path: pull the neighbour's value (races with the neighbour's own write).
        tile[threadIdx.x] = tile[(threadIdx.x + amount) % WIDTH];
    } else {
        // Push path: everyone has read its own slot before anyone writes.
        __syncthreads();
        tile[(threadIdx.x + amount) % WIDTH] = mine;
    }
}

template <int SHIFT, int WIDTH>
__global__ void rotate_rows(float *out, const float *in)
{
    __shared__ float tile[WIDTH];
    const int row = blockIdx.x * WIDTH;
    tile[threadIdx.x] = in[row + threadIdx.x];
    __syncthreads();
    rotate_in_place<(SHIFT < 0), WIDTH>(tile, SHIFT < 0 ? -SHIFT : SHIFT);
    __syncthreads();
    out[row + threadIdx.x] = tile[threadIdx.x];
}

int main()
{
    const int rows = 256;
    float *d_in, *d_out;
    cudaMalloc(&d_in, rows * 64 * sizeof(float));
    cudaMalloc(&d_out, rows * 64 * sizeof(float));
    rotate_rows<-3, 64><<<rows, 64>>>(d_out, d_in);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
