// Segmented sum: a ROWS x 64 matrix summed per row, four rows (segments) per block of 256
// threads, with one shared tree reduction running inside every 64-element segment.
#include <cuda_runtime.h>
#include <cstdio>

#define ROWS 65536
#define SEG 64
#define BLOCK 256
#define SEGS_PER_BLOCK (BLOCK / SEG)

__global__ void segmentedRowSum(const float *__restrict__ in, float *__restrict__ rowSums)
{
    __shared__ float buf[BLOCK];
    const int tid = threadIdx.x;
    const int lane = tid % SEG;
    const int seg = tid / SEG;

    buf[tid] = in[(size_t)blockIdx.x * BLOCK + tid];
    __syncthreads();
    for (int s = SEG / 2; s > 0; s >>= 1) {
        if (lane < s)
            buf[tid] += buf[tid + s];
        __syncthreads();
    }
    if (lane == 0)
        rowSums[blockIdx.x * SEGS_PER_BLOCK + seg] = buf[tid];
}

int main()
{
    float *d_in, *d_out;
    cudaMalloc(&d_in, (size_t)ROWS * SEG * sizeof(float));
    cudaMalloc(&d_out, ROWS * sizeof(float));
    cudaMemset(d_in, 0, (size_t)ROWS * SEG * sizeof(float));
    segmentedRowSum<<<ROWS / SEGS_PER_BLOCK, BLOCK>>>(d_in, d_out);
    cudaDeviceSynchronize();
    printf("segmented_row_sum done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
