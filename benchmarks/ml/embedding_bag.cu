// EmbeddingBag(mode="sum") with fixed-size bags: one block per bag, the bag's indices staged in
// shared memory, the two halves of the block each summing half of the bag's rows into a shared
// accumulator, and the first half adding the two accumulators.
#include <cuda_runtime.h>
#include <cstdio>

#define NUM_EMB 65536
#define DIM 128
#define BAG 32
#define BAGS 8192
#define BLOCK 256
#define GROUPS (BLOCK / DIM)
#define PER_GROUP (BAG / GROUPS)

__global__ void embeddingBagSum(const float *__restrict__ table, const int *__restrict__ indices,
                                float *__restrict__ out)
{
    __shared__ int sIdx[BAG];
    __shared__ float sAcc[GROUPS][DIM];
    const int tid = threadIdx.x;
    const int d = tid % DIM;
    const int g = tid / DIM;

    if (tid < BAG)
        sIdx[tid] = indices[blockIdx.x * BAG + tid] & (NUM_EMB - 1);
    __syncthreads();

    float acc = 0.0f;
    for (int j = 0; j < PER_GROUP; ++j) {
        int row = sIdx[g * PER_GROUP + j];
        acc += table[(size_t)row * DIM + d];
    }
    sAcc[g][d] = acc;
    __syncthreads();

    if (g == 0) {
        float total = 0.0f;
#pragma unroll
        for (int k = 0; k < GROUPS; ++k)
            total += sAcc[k][d];
        out[(size_t)blockIdx.x * DIM + d] = total;
    }
}

int main()
{
    float *d_table, *d_out;
    int *d_idx;
    cudaMalloc(&d_table, (size_t)NUM_EMB * DIM * sizeof(float));
    cudaMalloc(&d_idx, (size_t)BAGS * BAG * sizeof(int));
    cudaMalloc(&d_out, (size_t)BAGS * DIM * sizeof(float));
    cudaMemset(d_table, 0, (size_t)NUM_EMB * DIM * sizeof(float));
    cudaMemset(d_idx, 0, (size_t)BAGS * BAG * sizeof(int));
    embeddingBagSum<<<BAGS, BLOCK>>>(d_table, d_idx, d_out);
    cudaDeviceSynchronize();
    printf("embedding_bag done\n");
    cudaFree(d_table);
    cudaFree(d_idx);
    cudaFree(d_out);
    return 0;
}
