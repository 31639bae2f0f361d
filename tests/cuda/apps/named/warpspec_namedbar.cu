// Warp-specialized dequantize + GEMV: y = dequant(Wq) * x with int8 weights and a per-row scale.
// A block of 4 warps handles 64 rows of Wq. Warps 0-1 are producers: for every 16-column slice
// of the rows they dequantize the int8 weights into a shared float tile and stage the matching
// slice of x. Warps 2-3 are consumers: consumer thread c accumulates the dot product of row c.
// The roles hand the single buffer back and forth with two named barriers of all 128 threads
// (barrier 0 is __syncthreads()): FULL (id 1) - producers arrive after filling, consumers sync
// before reading; EMPTY (id 2) - consumers arrive after reading, producers sync before refilling.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define ROWS_PER_BLOCK 64
#define SLICE_K 16
#define PRODUCER_THREADS 64
#define CONSUMER_THREADS 64
#define BLOCK_THREADS (PRODUCER_THREADS + CONSUMER_THREADS)

// Named barrier 1 ("tile full") and 2 ("tile empty"), 128 participating threads each.
__device__ __forceinline__ void tile_full_arrive() { asm volatile("bar.arrive 1, 128;\n" ::: "memory"); }
__device__ __forceinline__ void tile_full_wait() { asm volatile("bar.sync 1, 128;\n" ::: "memory"); }
__device__ __forceinline__ void tile_empty_arrive() { asm volatile("bar.arrive 2, 128;\n" ::: "memory"); }
__device__ __forceinline__ void tile_empty_wait() { asm volatile("bar.sync 2, 128;\n" ::: "memory"); }

__global__ void __launch_bounds__(BLOCK_THREADS)
dequant_gemv_ws(const int8_t *__restrict__ Wq, const float *__restrict__ row_scale,
                const float *__restrict__ x, float *__restrict__ y, int K)
{
    __shared__ float w_tile[ROWS_PER_BLOCK][SLICE_K + 1];
    __shared__ float x_tile[SLICE_K];

    const int row0 = blockIdx.x * ROWS_PER_BLOCK;
    const int num_slices = K / SLICE_K;

    if (threadIdx.x < PRODUCER_THREADS) {
        // Producer warps 0-1: thread p dequantizes row p of the block's rows.
        const int p = threadIdx.x;
        const float s = row_scale[row0 + p];
        const int8_t *wrow = Wq + (size_t)(row0 + p) * K;
        for (int t = 0; t < num_slices; ++t) {
            const int k0 = t * SLICE_K;
            if (t > 0)
                tile_empty_wait(); // consumers are done with slice t-1
#pragma unroll
            for (int j = 0; j < SLICE_K; ++j)
                w_tile[p][j] = s * (float)wrow[k0 + j];
            if (p < SLICE_K)
                x_tile[p] = x[k0 + p];
            tile_full_arrive();
        }
    } else {
        // Consumer warps 2-3: thread c owns row c.
        const int c = threadIdx.x - PRODUCER_THREADS;
        float sum = 0.0f;
        for (int t = 0; t < num_slices; ++t) {
            tile_full_wait();
#pragma unroll
            for (int j = 0; j < SLICE_K; ++j)
                sum += w_tile[c][j] * x_tile[j];
            if (t + 1 < num_slices)
                tile_empty_arrive();
        }
        y[row0 + c] = sum;
    }
}

int main()
{
    const int rows = 4096, K = 1024;
    std::vector<int8_t> hW((size_t)rows * K);
    std::vector<float> hScale(rows), hx(K), hy(rows);
    for (size_t i = 0; i < hW.size(); ++i)
        hW[i] = (int8_t)((int)(i * 37 % 255) - 127);
    for (int r = 0; r < rows; ++r)
        hScale[r] = 1.0f / 127.0f;
    for (int k = 0; k < K; ++k)
        hx[k] = (float)(k % 8) * 0.125f;

    int8_t *dW;
    float *dScale, *dx, *dy;
    cudaMalloc(&dW, hW.size());
    cudaMalloc(&dScale, rows * sizeof(float));
    cudaMalloc(&dx, K * sizeof(float));
    cudaMalloc(&dy, rows * sizeof(float));
    cudaMemcpy(dW, hW.data(), hW.size(), cudaMemcpyHostToDevice);
    cudaMemcpy(dScale, hScale.data(), rows * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dx, hx.data(), K * sizeof(float), cudaMemcpyHostToDevice);

    dequant_gemv_ws<<<rows / ROWS_PER_BLOCK, BLOCK_THREADS, 0>>>(dW, dScale, dx, dy, K);
    cudaDeviceSynchronize();
    cudaMemcpy(hy.data(), dy, rows * sizeof(float), cudaMemcpyDeviceToHost);
    printf("y[0] = %f, y[%d] = %f\n", hy[0], rows - 1, hy[rows - 1]);

    cudaFree(dW);
    cudaFree(dScale);
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}
