// Variant of halves_compact_scan.cu: no barrier between storing the flags and the first step.
/*
 * Stream compaction, first phase: the scatter offsets of one 128-element section per half
 * block (the host, or a later kernel, moves the kept elements).
 *
 * A section keeps the elements whose magnitude exceeds a threshold. Each element's output
 * position is the number of kept elements before it in its section, i.e. an exclusive prefix
 * sum of the 0/1 "keep" flags. We compute it with the Hillis-Steele (Kogge-Stone) inclusive
 * scan: in step d every element adds the value `stride` positions to its left. Reading and
 * writing the same array in one step would let a thread overwrite a value its right neighbour
 * has not read yet, so we double-buffer: step d reads buf[in] and writes buf[1 - in].
 *
 * A block of 256 threads scans two sections side by side. Since the two sections are
 * independent, the two halves of the block do not need to wait for each other: each half
 * synchronizes its own four warps with a named barrier (bar.sync id, 128) instead of
 * __syncthreads(), section 0 with barrier 1 and section 1 with barrier 2.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define SECTION_SIZE 128
#define BLOCK_SIZE (2 * SECTION_SIZE)
#define GRID_SIZE 256
#define N (GRID_SIZE * BLOCK_SIZE)

// Barrier BAR of COUNT threads; both are compile-time constants.
template <int BAR, int COUNT>
__device__ __forceinline__ void section_barrier()
{
    asm volatile("bar.sync %0, %1;" ::"r"(BAR), "r"(COUNT) : "memory");
}

// Inclusive scan of one section held one element per thread (i = 0..SECTION_SIZE-1).
template <int BAR, int COUNT>
__device__ int section_scan(int (*buf)[SECTION_SIZE], int value, int i)
{
    int in = 0;
    buf[in][i] = value;
    for (int stride = 1; stride < SECTION_SIZE; stride *= 2) {
        int out = 1 - in;
        int v = buf[in][i];
        if (i >= stride)
            v += buf[in][i - stride];
        buf[out][i] = v;
        section_barrier<BAR, COUNT>();
        in = out;
    }
    return buf[in][i];
}

__global__ void compact_offsets(const float *input, int *offset, int *section_count, float threshold)
{
    __shared__ int scan_a[2][SECTION_SIZE]; // section 0 of the block (warps 0-3)
    __shared__ int scan_b[2][SECTION_SIZE]; // section 1 of the block (warps 4-7)

    int section = blockIdx.x * 2 + threadIdx.x / SECTION_SIZE;
    int i = threadIdx.x % SECTION_SIZE;
    int g = section * SECTION_SIZE + i;

    float x = input[g];
    int keep = fabsf(x) > threshold ? 1 : 0;

    int inclusive;
    if (threadIdx.x < SECTION_SIZE)
        inclusive = section_scan<1, SECTION_SIZE>(scan_a, keep, i);
    else
        inclusive = section_scan<2, SECTION_SIZE>(scan_b, keep, i);

    // exclusive offset of the element within its section's output range
    offset[g] = inclusive - keep;
    if (i == SECTION_SIZE - 1)
        section_count[section] = inclusive;
}

int main(void)
{
    int num_sections = N / SECTION_SIZE;
    size_t bytes = N * sizeof(float);

    float *h_in = (float *)malloc(bytes);
    for (int k = 0; k < N; k++)
        h_in[k] = sinf(0.37f * k) * 2.0f;

    float *d_in;
    int *d_offset, *d_count;
    cudaMalloc((void **)&d_in, bytes);
    cudaMalloc((void **)&d_offset, N * sizeof(int));
    cudaMalloc((void **)&d_count, num_sections * sizeof(int));
    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);

    dim3 dimGrid(GRID_SIZE, 1, 1);
    dim3 dimBlock(BLOCK_SIZE, 1, 1);
    compact_offsets<<<dimGrid, dimBlock>>>(d_in, d_offset, d_count, 1.0f);
    cudaDeviceSynchronize();

    int *h_offset = (int *)malloc(N * sizeof(int));
    int *h_count = (int *)malloc(num_sections * sizeof(int));
    cudaMemcpy(h_offset, d_offset, N * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_count, d_count, num_sections * sizeof(int), cudaMemcpyDeviceToHost);

    // scatter on the host: kept elements to the front of their section, in order
    float *h_out = (float *)calloc(N, sizeof(float));
    long kept = 0;
    for (int k = 0; k < N; k++)
        if (fabsf(h_in[k]) > 1.0f)
            h_out[(k / SECTION_SIZE) * SECTION_SIZE + h_offset[k]] = h_in[k];
    for (int s = 0; s < num_sections; s++)
        kept += h_count[s];
    printf("kept %ld of %d elements, first %f\n", kept, N, h_out[0]);

    cudaFree(d_in);
    cudaFree(d_offset);
    cudaFree(d_count);
    free(h_in);
    free(h_offset);
    free(h_count);
    free(h_out);
    return 0;
}
