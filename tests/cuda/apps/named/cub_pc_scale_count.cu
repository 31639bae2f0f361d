// Variant of cub_pc_scale.cu: `ready` is initialized for the 64 consumers only, but all 128
// threads arrive at it, so a phase can complete before the producers arrived.
// Row scaling with a producer/consumer split on libcu++ block barriers: warps 0-1 (64
// producer threads) stage a 64-element slice of a row in shared memory, warps 2-3 (64
// consumer threads) scale it by the row's norm factor and write it out. The slice buffer is
// handed over with `ready` (producers arrive, consumers arrive and wait) and handed back with
// `drained` (consumers arrive, producers arrive and wait), both counting all 128 threads.
#include <cuda_runtime.h>
#include <cuda/barrier>
#include <cstdio>
#include <vector>

constexpr int kProducers = 64;
constexpr int kConsumers = 64;
constexpr int kThreads = kProducers + kConsumers;
constexpr int kSlice = 64;
constexpr int kSlices = 16;           // slices per row
constexpr int kCols = kSlice * kSlices;
constexpr int kRows = 2048;

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void scale_rows_pc(const float *__restrict__ in, const float *__restrict__ factor,
                              float *__restrict__ out)
{
    __shared__ block_barrier ready;
    __shared__ block_barrier drained;
    __shared__ float slice[kSlice];

    if (threadIdx.x == 0) {
        init(&ready, kConsumers);      // forgets the producers' arrivals
        init(&drained, kThreads);
    }
    __syncthreads();

    const int row = blockIdx.x;
    if (threadIdx.x < kProducers) {
        const int p = threadIdx.x;
        for (int s = 0; s < kSlices; ++s) {
            slice[p] = in[row * kCols + s * kSlice + p];
            (void)ready.arrive();          // slice s is in shared memory
            drained.arrive_and_wait();     // consumers are done with it
        }
    } else {
        const int c = threadIdx.x - kProducers;
        const float f = factor[row];
        for (int s = 0; s < kSlices; ++s) {
            ready.arrive_and_wait();       // slice s has landed
            // consumers read the slice reversed within the slice (a permuted store order)
            out[row * kCols + s * kSlice + c] = f * slice[kSlice - 1 - c];
            (void)drained.arrive();        // done reading slice s
        }
    }
}

int main()
{
    const size_t n = (size_t)kRows * kCols;
    std::vector<float> h_in(n, 1.0f), h_f(kRows, 2.0f), h_out(n);
    float *d_in, *d_f, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_f, kRows * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_f, h_f.data(), kRows * sizeof(float), cudaMemcpyHostToDevice);
    scale_rows_pc<<<kRows, kThreads>>>(d_in, d_f, d_out);
    cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%f\n", h_out[0]);
    cudaFree(d_in);
    cudaFree(d_f);
    cudaFree(d_out);
    return 0;
}
