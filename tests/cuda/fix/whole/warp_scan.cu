// Inclusive scan of each warp's 32 values in shared memory (Hillis-Steele), then the warp totals
// scanned by the first warp and added back: the building block of a stream compaction.
#include <cstdio>
#include <cuda_runtime.h>

#define WARP 32
#define BLOCK 256

__global__ void blockScan(const int *in, int *out, int n)
{
    __shared__ int buf[BLOCK];
    __shared__ int warpTotals[BLOCK / WARP];
    int tid = threadIdx.x;
    int lane = tid & (WARP - 1);
    int warpId = tid / WARP;
    int gid = blockIdx.x * BLOCK + tid;

    buf[tid] = (gid < n) ? in[gid] : 0;
    for (int offset = 1; offset < WARP; offset *= 2) {
        int add = (lane >= offset) ? buf[tid - offset] : 0;
        buf[tid] += add;
    }
    if (lane == WARP - 1)
        warpTotals[warpId] = buf[tid];
    __syncthreads();

    if (warpId == 0) {
        int total = (lane < BLOCK / WARP) ? warpTotals[lane] : 0;
        for (int offset = 1; offset < BLOCK / WARP; offset *= 2) {
            int up = __shfl_up_sync(0xffffffff, total, offset);
            if (lane >= offset)
                total += up;
        }
        if (lane < BLOCK / WARP)
            warpTotals[lane] = total;
    }
    __syncthreads();

    int carry = (warpId > 0) ? warpTotals[warpId - 1] : 0;
    if (gid < n)
        out[gid] = buf[tid] + carry;
}

int main()
{
    const int n = 1 << 20;
    int *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMemset(d_in, 0, n * sizeof(int));
    dim3 block(BLOCK);
    dim3 grid((n + BLOCK - 1) / BLOCK);
    blockScan<<<grid, block>>>(d_in, d_out, n);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
