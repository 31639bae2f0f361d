// A textbook 1-D smoothing stencil whose combining operator is chosen per launch: the kernel
// picks a device function through a function pointer (`useMax ? maxOf : average`) and hands it to
// a helper that applies it to a thread's neighbours in a shared-memory tile with halo cells.
// Bug: no barrier between filling the tile and reading the neighbours.
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK 128
#define RADIUS 1

typedef float (*combine_t)(float, float);

__device__ float average(float a, float b) { return 0.5f * (a + b); }
__device__ float maxOf(float a, float b) { return a > b ? a : b; }

__device__ float neighbours(const float *tile, int t, combine_t op)
{
    return (*op)(tile[t - 1], tile[t + 1]);
}

__global__ void smooth(const float *in, float *out, int n, int useMax)
{
    __shared__ float tile[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * BLOCK + threadIdx.x;
    int t = threadIdx.x + RADIUS;
    tile[t] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS) {
        tile[t - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.0f;
        tile[t + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0.0f;
    }
    combine_t op = useMax ? maxOf : average;
    if (g < n)
        out[g] = neighbours(tile, t, op);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    int useMax = argc > 2;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    smooth<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n, useMax);
    cudaDeviceSynchronize();
    return 0;
}
