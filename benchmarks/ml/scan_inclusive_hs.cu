// Block-wise inclusive prefix sum (Hillis-Steele) with two shared buffers that swap roles every
// step, so one barrier per step suffices; the block totals go to a separate array for a later
// uniform-add pass.
#include <cuda_runtime.h>
#include <cstdio>

#define N (1 << 22)
#define BLOCK 256

__global__ void scanInclusive(const float *__restrict__ in, float *__restrict__ out, float *__restrict__ blockSums)
{
    __shared__ float buf[2][BLOCK];
    const int tid = threadIdx.x;
    const int gid = blockIdx.x * BLOCK + tid;
    int pout = 0;
    int pin = 1;

    buf[pout][tid] = (gid < N) ? in[gid] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < BLOCK; offset <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= offset)
            buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
        else
            buf[pout][tid] = buf[pin][tid];
        __syncthreads();
    }
    if (gid < N)
        out[gid] = buf[pout][tid];
    if (tid == BLOCK - 1)
        blockSums[blockIdx.x] = buf[pout][tid];
}

int main()
{
    float *d_in, *d_out, *d_sums;
    cudaMalloc(&d_in, N * sizeof(float));
    cudaMalloc(&d_out, N * sizeof(float));
    cudaMalloc(&d_sums, (N / BLOCK) * sizeof(float));
    cudaMemset(d_in, 0, N * sizeof(float));
    scanInclusive<<<N / BLOCK, BLOCK>>>(d_in, d_out, d_sums);
    cudaDeviceSynchronize();
    printf("scan_inclusive_hs done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sums);
    return 0;
}
