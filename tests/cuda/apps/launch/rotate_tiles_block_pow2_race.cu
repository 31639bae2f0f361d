// In-place rotation of each block's tile by one element through shared memory (a step of a
// cyclic-reduction solver). The kernel wraps with a mask of blockDim.x - 1, so the block size
// must be a power of two, but the host only requires a multiple of the warp size: with 96
// threads the mask 95 sends threads 31 and 95 to the same cell.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void rotate_tiles(float *data)
{
    __shared__ float tile[1024];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    tile[(t + 1) & (blockDim.x - 1)] = data[base + t];
    __syncthreads();
    data[base + t] = tile[t];
}

static bool warp_multiple(int v)
{
    return v > 0 && v % 32 == 0;
}

static void require(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "invalid %s\n", what);
        exit(EXIT_FAILURE);
    }
}

int main(int argc, char **argv)
{
    int tiles = argc > 1 ? atoi(argv[1]) : 1 << 14;
    int threads = argc > 2 ? atoi(argv[2]) : 256;
    require(warp_multiple(threads), "block size (a multiple of 32)");
    float *data;
    cudaMalloc(&data, (size_t)tiles * threads * sizeof(float));
    rotate_tiles<<<tiles, threads>>>(data);
    cudaDeviceSynchronize();
    return 0;
}
