// A persistent-threads histogram in one cooperative launch (cooperative-groups sample style):
// every block bins a grid-stride share of the input into a shared histogram, publishes it as
// its row of `partials`, and after a grid-wide barrier block 0 adds the rows up. The grid
// barrier that should keep block 0 from reading the rows before they are written is missing.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define BINS 64

__global__ void histogram_persistent(const unsigned char *in, int n, unsigned *partials, unsigned *hist)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ unsigned local[BINS];

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    block.sync();

    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&local[in[i] % BINS], 1u);
    block.sync();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        partials[blockIdx.x * BINS + b] = local[b];

    // (the grid barrier between publishing and combining is missing)

    if (blockIdx.x == 0) {
        for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
            unsigned sum = 0;
            for (int k = 0; k < gridDim.x; ++k)
                sum += partials[k * BINS + b];
            hist[b] = sum;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : (1 << 22);
    int device = 0, supported = 0, sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device);
    if (!supported) {
        printf("cooperative launch not supported\n");
        return 0;
    }
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    int threads = 256;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_persistent, threads, 0);
    dim3 block(threads);
    dim3 grid(sms * per_sm);

    unsigned char *in;
    unsigned *partials, *hist;
    cudaMalloc(&in, n);
    cudaMalloc(&partials, grid.x * BINS * sizeof(unsigned));
    cudaMalloc(&hist, BINS * sizeof(unsigned));
    cudaMemset(in, 7, n);

    void *args[] = {&in, &n, &partials, &hist};
    cudaLaunchCooperativeKernel((void *)histogram_persistent, grid, block, args, 0, 0);
    cudaDeviceSynchronize();

    unsigned h[BINS];
    cudaMemcpy(h, hist, sizeof(h), cudaMemcpyDeviceToHost);
    printf("bin 7: %u\n", h[7]);
    cudaFree(in);
    cudaFree(partials);
    cudaFree(hist);
    return 0;
}
