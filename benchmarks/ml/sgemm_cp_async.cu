// Double-buffered tiled SGEMM with Ampere cp.async: 32x32 tiles of A and B are copied 16 bytes
// per thread straight into shared memory while the previous tiles are being multiplied. One
// barrier per K step: after waiting for this thread's copies, it makes the tile visible to all
// threads and also guarantees everyone has finished reading the buffer about to be refilled.
#include <cuda_runtime.h>
#include <cstdio>

#define M 2048
#define N 2048
#define K 2048
#define TILE 32
#define BLOCK 256
#define VEC 4
#define ROWS_PER_THREAD (TILE * TILE / BLOCK)

__device__ __forceinline__ void cpAsync16(void *smem, const void *gmem)
{
    unsigned int saddr = static_cast<unsigned int>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr), "l"(gmem));
}

__device__ __forceinline__ void cpAsyncCommit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

__device__ __forceinline__ void cpAsyncWaitAll()
{
    asm volatile("cp.async.wait_group 0;\n" ::);
}

__global__ void sgemmCpAsync(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C)
{
    __shared__ __align__(16) float As[2][TILE][TILE];
    __shared__ __align__(16) float Bs[2][TILE][TILE];
    const int tid = threadIdx.x;
    const int rowBase = blockIdx.y * TILE;
    const int colBase = blockIdx.x * TILE;
    const int ldRow = tid / (TILE / VEC);
    const int ldCol = (tid % (TILE / VEC)) * VEC;
    const int cCol = tid % TILE;
    const int cRow = tid / TILE;

    float acc[ROWS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ROWS_PER_THREAD; ++i)
        acc[i] = 0.0f;

    cpAsync16(&As[0][ldRow][ldCol], &A[(size_t)(rowBase + ldRow) * K + ldCol]);
    cpAsync16(&Bs[0][ldRow][ldCol], &B[(size_t)ldRow * N + colBase + ldCol]);
    cpAsyncCommit();

    const int numTiles = K / TILE;
    for (int kt = 0; kt < numTiles; ++kt) {
        const int cur = kt % 2;
        cpAsyncWaitAll();
        __syncthreads();

        if (kt + 1 < numTiles) {
            const int nxt = 1 - cur;
            const int k0 = (kt + 1) * TILE;
            cpAsync16(&As[nxt][ldRow][ldCol], &A[(size_t)(rowBase + ldRow) * K + k0 + ldCol]);
            cpAsync16(&Bs[nxt][ldRow][ldCol], &B[(size_t)(k0 + ldRow) * N + colBase + ldCol]);
            cpAsyncCommit();
        }

#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            float b = Bs[cur][k][cCol];
#pragma unroll
            for (int i = 0; i < ROWS_PER_THREAD; ++i)
                acc[i] += As[cur][cRow + i * (BLOCK / TILE)][k] * b;
        }
    }

#pragma unroll
    for (int i = 0; i < ROWS_PER_THREAD; ++i)
        C[(size_t)(rowBase + cRow + i * (BLOCK / TILE)) * N + colBase + cCol] = acc[i];
}

int main()
{
    float *d_a, *d_b, *d_c;
    cudaMalloc(&d_a, (size_t)M * K * sizeof(float));
    cudaMalloc(&d_b, (size_t)K * N * sizeof(float));
    cudaMalloc(&d_c, (size_t)M * N * sizeof(float));
    cudaMemset(d_a, 0, (size_t)M * K * sizeof(float));
    cudaMemset(d_b, 0, (size_t)K * N * sizeof(float));
    dim3 grid(N / TILE, M / TILE);
    sgemmCpAsync<<<grid, BLOCK>>>(d_a, d_b, d_c);
    cudaDeviceSynchronize();
    printf("sgemm_cp_async done\n");
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return 0;
}
