// Tiled matrix multiplication in the style of the CUDA SDK matrixMul sample (one C element per
// thread, BLOCK_SIZE x BLOCK_SIZE tiles of A and B in shared memory), double-buffered with a
// per-thread libcu++ pipeline: while the block multiplies tile t from one stage, every thread's
// copies of tile t+1 (one float of A and one of B) are in flight into the other stage.
// C = A * B, row-major, A is hA x wA, B is wA x wB.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda/pipeline>

using thread_pipeline = cuda::pipeline<cuda::thread_scope_thread>;

// One pipeline stage: this thread's element of the A tile and of the B tile.
__device__ __forceinline__ void issue_stage(float *as_dst, const float *a_src, float *bs_dst,
                                            const float *b_src, thread_pipeline &pipe)
{
    pipe.producer_acquire();
    cuda::memcpy_async(as_dst, a_src, sizeof(float), pipe);
    cuda::memcpy_async(bs_dst, b_src, sizeof(float), pipe);
    pipe.producer_commit();
}

template <int BLOCK_SIZE>
__global__ void MatrixMulPipelined(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ float As[2][BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[2][BLOCK_SIZE][BLOCK_SIZE];

    const int bx = blockIdx.x, by = blockIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int aBegin = wA * BLOCK_SIZE * by; // first A tile of this block row
    const int bBegin = BLOCK_SIZE * bx;      // first B tile of this block column
    const int aStep = BLOCK_SIZE;
    const int bStep = BLOCK_SIZE * wB;
    const int numTiles = wA / BLOCK_SIZE;

    thread_pipeline pipe = cuda::make_pipeline();

    // Prologue: tile 0 into stage 0.
    issue_stage(&As[0][ty][tx], &A[aBegin + wA * ty + tx], &Bs[0][ty][tx], &B[bBegin + wB * ty + tx], pipe);

    float Csub = 0.0f;
    for (int t = 0; t < numTiles; ++t) {
        const int cur = t & 1;
        if (t + 1 < numTiles) {
            const int a = aBegin + (t + 1) * aStep;
            const int b = bBegin + (t + 1) * bStep;
            issue_stage(&As[cur ^ 1][ty][tx], &A[a + wA * ty + tx], &Bs[cur ^ 1][ty][tx],
                        &B[b + wB * ty + tx], pipe);
        }
        pipe.consumer_wait(); // this thread's copies of tile t have landed
        __syncthreads();      // ... and every other thread's

#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k)
            Csub += As[cur][ty][k] * Bs[cur][k][tx];

        __syncthreads();      // stage `cur` is refilled by the next iteration's copies
        pipe.consumer_release();
    }

    C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = Csub;
}

static void checkCuda(cudaError_t err, const char *what)
{
    if (err != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}

int main()
{
    constexpr int block_size = 16;
    const int hA = 512, wA = 256, wB = 384;

    std::vector<float> h_A((size_t)hA * wA), h_B((size_t)wA * wB), h_C((size_t)hA * wB);
    for (size_t i = 0; i < h_A.size(); ++i) h_A[i] = (float)(i % 13) * 0.125f;
    for (size_t i = 0; i < h_B.size(); ++i) h_B[i] = (float)(i % 7) * 0.25f;

    float *d_A, *d_B, *d_C;
    checkCuda(cudaMalloc(&d_A, h_A.size() * sizeof(float)), "cudaMalloc A");
    checkCuda(cudaMalloc(&d_B, h_B.size() * sizeof(float)), "cudaMalloc B");
    checkCuda(cudaMalloc(&d_C, h_C.size() * sizeof(float)), "cudaMalloc C");
    checkCuda(cudaMemcpy(d_A, h_A.data(), h_A.size() * sizeof(float), cudaMemcpyHostToDevice), "copy A");
    checkCuda(cudaMemcpy(d_B, h_B.data(), h_B.size() * sizeof(float), cudaMemcpyHostToDevice), "copy B");

    dim3 threads(block_size, block_size);
    dim3 grid(wB / threads.x, hA / threads.y);
    MatrixMulPipelined<block_size><<<grid, threads>>>(d_C, d_A, d_B, wA, wB);
    checkCuda(cudaGetLastError(), "launch");
    checkCuda(cudaDeviceSynchronize(), "MatrixMulPipelined");
    checkCuda(cudaMemcpy(h_C.data(), d_C, h_C.size() * sizeof(float), cudaMemcpyDeviceToHost), "copy C");

    int errors = 0;
    for (int i = 0; i < hA; i += 97) {
        for (int j = 0; j < wB; j += 53) {
            double ref = 0.0;
            for (int k = 0; k < wA; ++k)
                ref += (double)h_A[(size_t)i * wA + k] * h_B[(size_t)k * wB + j];
            if (fabs(ref - h_C[(size_t)i * wB + j]) > 1e-3 * fabs(ref) + 1e-3)
                ++errors;
        }
    }
    printf("%s\n", errors ? "Result = FAIL" : "Result = PASS");

    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
