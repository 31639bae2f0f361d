// 1-D convolution (cross-correlation) with a (2R+1)-tap filter over a batch of signals: each
// block stages BLOCK samples plus an R-sample halo on both sides, zero padded at the edges, and
// the filter taps, in shared memory.
#include <cuda_runtime.h>
#include <cstdio>

#define SIGNALS 64
#define LEN 65536
#define BLOCK 256
#define RADIUS 4
#define TAPS (2 * RADIUS + 1)

__global__ void conv1dHalo(const float *__restrict__ in, const float *__restrict__ taps, float *__restrict__ out)
{
    __shared__ float sIn[BLOCK + 2 * RADIUS];
    __shared__ float sTaps[TAPS];
    const int tid = threadIdx.x;
    const int i = blockIdx.x * BLOCK + tid;
    const float *sig = in + (size_t)blockIdx.y * LEN;

    if (tid < TAPS)
        sTaps[tid] = taps[tid];
    sIn[tid + RADIUS] = (i < LEN) ? sig[i] : 0.0f;
    if (tid < RADIUS) {
        int left = i - RADIUS;
        int right = i + BLOCK;
        sIn[tid] = (left >= 0) ? sig[left] : 0.0f;
        sIn[tid + BLOCK + RADIUS] = (right < LEN) ? sig[right] : 0.0f;
    }
    __syncthreads();

    if (i < LEN) {
        float acc = 0.0f;
#pragma unroll
        for (int k = 0; k < TAPS; ++k)
            acc += sTaps[k] * sIn[tid + k];
        out[(size_t)blockIdx.y * LEN + i] = acc;
    }
}

int main()
{
    float *d_in, *d_out, *d_taps;
    cudaMalloc(&d_in, (size_t)SIGNALS * LEN * sizeof(float));
    cudaMalloc(&d_out, (size_t)SIGNALS * LEN * sizeof(float));
    cudaMalloc(&d_taps, TAPS * sizeof(float));
    cudaMemset(d_in, 0, (size_t)SIGNALS * LEN * sizeof(float));
    cudaMemset(d_taps, 0, TAPS * sizeof(float));
    dim3 grid((LEN + BLOCK - 1) / BLOCK, SIGNALS);
    conv1dHalo<<<grid, BLOCK>>>(d_in, d_taps, d_out);
    cudaDeviceSynchronize();
    printf("conv1d_halo done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_taps);
    return 0;
}
