// Per-row scaling for the two hidden sizes a model supports, in the style of ML inference code:
// the launcher picks one thread per element of a row for each size it knows and refuses the
// others, and passes the row length along. The second case takes every length up to 512 but
// launches 512 threads: rows shorter than that overlap the next block's row.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale_rows(float *rows, const float *gain, int n)
{
    rows[blockIdx.x * n + threadIdx.x] *= gain[threadIdx.x];
}

static void launch_scale(float *rows, const float *gain, int count, int n)
{
    if (n == 256) {
        scale_rows<<<count, 256>>>(rows, gain, n);
    } else if (n <= 512) {
        scale_rows<<<count, 512>>>(rows, gain, n);
    } else {
        fprintf(stderr, "unsupported row length %d\n", n);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 1024;
    int n = argc > 2 ? atoi(argv[2]) : 512;
    float *rows, *gain;
    cudaMalloc(&rows, (size_t)count * n * sizeof(float));
    cudaMalloc(&gain, n * sizeof(float));
    launch_scale(rows, gain, count, n);
    cudaDeviceSynchronize();
    return 0;
}
