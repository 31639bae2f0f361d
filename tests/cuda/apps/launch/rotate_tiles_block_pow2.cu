// In-place rotation of each block's tile by one element through shared memory (a step of a
// cyclic-reduction solver). The kernel wraps with a mask of blockDim.x - 1, so the block size
// must be a power of two: the host reads it from the command line and refuses other sizes.
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

static bool power_of_two(int v)
{
    return v > 0 && (v & (v - 1)) == 0;
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
    require(power_of_two(threads), "block size (a power of two)");
    float *data;
    cudaMalloc(&data, (size_t)tiles * threads * sizeof(float));
    rotate_tiles<<<tiles, threads>>>(data);
    cudaDeviceSynchronize();
    return 0;
}
