// Mixed-precision tile transpose in the style of ML utility code: a template device function
// called with explicit template arguments (`cast_value<Tout, Tin>(x)`), a kernel template with
// a default argument (TILE = 32) used as the size of its shared tile, instantiated by the
// launch in the host code. Bug: the barrier between the tile's writes and its transposed
// reads is missing.
#include <cuda_runtime.h>

template <typename Td, typename Ts>
__device__ __forceinline__ Td cast_value(Ts x)
{
    return static_cast<Td>(x);
}

template <typename Tin, typename Tout, int TILE = 32>
__global__ void transposeCast(const Tin *in, Tout *out, int rows, int cols)
{
    __shared__ Tout tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = cast_value<Tout, Tin>(in[y * cols + x]);
    int tx = blockIdx.y * TILE + threadIdx.x;
    int ty = blockIdx.x * TILE + threadIdx.y;
    if (tx < rows && ty < cols)
        out[ty * rows + tx] = tile[threadIdx.x][threadIdx.y];
}

int main()
{
    const int rows = 1024, cols = 2048;
    int *d_in;
    float *d_out;
    cudaMalloc(&d_in, rows * cols * sizeof(int));
    cudaMalloc(&d_out, rows * cols * sizeof(float));
    dim3 block(32, 32);
    dim3 grid(cols / 32, rows / 32);
    transposeCast<int, float><<<grid, block>>>(d_in, d_out, rows, cols);
    cudaDeviceSynchronize();
    return 0;
}
