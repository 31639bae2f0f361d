// Tiled transpose templated on the tile size, one instance per size, each launched with its own
// square block (benchmark-suite style: the size is picked at run time).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <int TILE>
__global__ void transpose(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < n && y < n)
        tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < n && y < n)
        out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

int main(int argc, char **argv)
{
    int n = 4096;
    bool small = argc > 1 && atoi(argv[1]) == 16;
    float *in, *out;
    cudaMalloc(&in, (size_t)n * n * sizeof(float));
    cudaMalloc(&out, (size_t)n * n * sizeof(float));
    if (small) {
        dim3 threads16(16, 16);
        dim3 blocks16(n / 16, n / 16);
        transpose<16><<<blocks16, threads16>>>(in, out, n);
    } else {
        dim3 threads32(32, 32);
        dim3 blocks32(n / 32, n / 32);
        transpose<32><<<blocks32, threads32>>>(in, out, n);
    }
    cudaDeviceSynchronize();
    printf("transposed %d x %d\n", n, n);
    return 0;
}
