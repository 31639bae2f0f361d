// y = A * x for a column-major A (n_rows x n_cols, leading dimension n_rows), BLAS "N" case:
// one row per thread, so the loads of A are coalesced. The vector x is the shared operand: it
// is streamed through shared memory in tiles of kThreads floats, double-buffered with a
// per-thread cuda::pipeline in the style of the primitive API: one stage committed per
// iteration (empty in the last one) and cuda::pipeline_consumer_wait_prior<kStages - 1>, which
// waits for all but the stage just committed (and implicitly releases the stages it covers).
// Variant: the wait count is kStages ("two buffers, so two stages"), one too many.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda/pipeline>

constexpr int kThreads = 128;
constexpr int kStages = 2;

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__,  \
                    __LINE__);                                                             \
            exit(EXIT_FAILURE);                                                            \
        }                                                                                  \
    } while (0)

__global__ void __launch_bounds__(kThreads)
sgemv_n_xtiles(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y,
               int n_rows, int n_cols)
{
    __shared__ float xs[kStages][kThreads];

    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const int t = threadIdx.x;
    const int row = blockIdx.x * kThreads + t;
    const int num_tiles = n_cols / kThreads;

    // Prologue: x tile 0.
    pipe.producer_acquire();
    cuda::memcpy_async(&xs[0][t], &x[t], sizeof(float), pipe);
    pipe.producer_commit();

    float acc = 0.0f;
    for (int tile = 0; tile < num_tiles; ++tile) {
        const int cur = tile % kStages;
        pipe.producer_acquire();
        if (tile + 1 < num_tiles)
            cuda::memcpy_async(&xs[(tile + 1) % kStages][t], &x[(tile + 1) * kThreads + t], sizeof(float), pipe);
        pipe.producer_commit(); // an empty stage in the last iteration keeps the count uniform

        cuda::pipeline_consumer_wait_prior<kStages>(pipe);     // my copy of tile `tile` landed
        __syncthreads();                                       // everyone's did

        const float *a = A + (size_t)tile * kThreads * n_rows + row;
#pragma unroll 8
        for (int j = 0; j < kThreads; ++j)
            acc += a[(size_t)j * n_rows] * xs[cur][j];

        __syncthreads(); // xs[cur] is refilled in the next iteration
    }
    y[row] = acc;
}

int main()
{
    const int n_rows = 8192;
    const int n_cols = 4096;

    std::vector<float> h_A((size_t)n_rows * n_cols), h_x(n_cols), h_y(n_rows);
    for (int c = 0; c < n_cols; ++c) {
        h_x[c] = 1.0f / (1 + c % 16);
        for (int r = 0; r < n_rows; ++r)
            h_A[(size_t)c * n_rows + r] = (float)((r + 3 * c) % 9) - 4.0f;
    }

    float *d_A, *d_x, *d_y;
    CHECK(cudaMalloc(&d_A, h_A.size() * sizeof(float)));
    CHECK(cudaMalloc(&d_x, h_x.size() * sizeof(float)));
    CHECK(cudaMalloc(&d_y, h_y.size() * sizeof(float)));
    CHECK(cudaMemcpy(d_A, h_A.data(), h_A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_x, h_x.data(), h_x.size() * sizeof(float), cudaMemcpyHostToDevice));

    sgemv_n_xtiles<<<n_rows / kThreads, kThreads>>>(d_A, d_x, d_y, n_rows, n_cols);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_y.data(), d_y, h_y.size() * sizeof(float), cudaMemcpyDeviceToHost));

    double max_err = 0.0;
    for (int r = 0; r < n_rows; r += 511) {
        double ref = 0.0;
        for (int c = 0; c < n_cols; ++c)
            ref += (double)h_A[(size_t)c * n_rows + r] * h_x[c];
        max_err = fmax(max_err, fabs(ref - h_y[r]));
    }
    printf("max error %g\n", max_err);

    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    return 0;
}
