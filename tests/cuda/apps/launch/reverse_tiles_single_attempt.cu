// Reverses each 256-element tile of a buffer through shared memory. The launcher is a leftover
// of a version that retried with a bigger block on failure: its attempt loop now ends in
// `break`, so the kernel is launched once, with 256 threads, and the bigger block of the next
// attempt is never used.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 256

__global__ void reverse_tiles(float *data)
{
    __shared__ float s[TILE];
    unsigned i = blockIdx.x * TILE + threadIdx.x;
    s[threadIdx.x] = data[i];
    __syncthreads();
    data[i] = s[TILE - 1 - threadIdx.x];
}

int main(int argc, char **argv)
{
    int tiles = argc > 1 ? atoi(argv[1]) : 1024;
    float *data;
    cudaMalloc(&data, (size_t)tiles * TILE * sizeof(float));
    int threads = TILE;
    for (int attempt = 0; attempt < 2; ++attempt) {
        reverse_tiles<<<tiles, threads>>>(data);
        if (cudaGetLastError() != cudaSuccess)
            fprintf(stderr, "launch failed with %d threads\n", threads);
        threads *= 2;
        break;
    }
    cudaDeviceSynchronize();
    return 0;
}
