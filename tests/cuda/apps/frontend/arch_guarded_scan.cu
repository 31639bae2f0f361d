// A header-guarded kernel file as libraries ship them: it refuses to compile without nvcc
// (`__CUDACC__`), and picks the warp-synchronous-free path for every architecture from
// Volta on (`__CUDA_ARCH__ >= 700`, which nvcc defines in device code). Hillis-Steele scan of
// one block in shared memory, double-buffered.
#ifndef __CUDACC__
#error "this file must be compiled with nvcc"
#endif
#include <cuda_runtime.h>

#define N 512

__global__ void blockScan(const int *in, int *out)
{
    __shared__ int buf[2][N];
    int t = threadIdx.x;
    int src = 0;
    buf[src][t] = in[blockIdx.x * N + t];
    __syncthreads();
    for (int off = 1; off < N; off *= 2) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
        int v = buf[src][t];
        if (t >= off)
            v += buf[src][t - off];
        buf[1 - src][t] = v;
        __syncthreads();
#else
#error "pre-Volta path not maintained"
#endif
        src = 1 - src;
    }
    out[blockIdx.x * N + t] = buf[src][t];
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, 64 * N * sizeof(int));
    cudaMalloc(&out, 64 * N * sizeof(int));
    blockScan<<<64, N>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
