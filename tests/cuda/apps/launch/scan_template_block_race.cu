// Block-wide inclusive scan (Hillis-Steele, double-buffered) as a template over the block size,
// the way CUB-like helper libraries are written; the host launches the 256 instance once with 512 threads.
#include <cstdio>
#include <cuda_runtime.h>

template <int BLOCK>
__global__ void block_scan(const int *in, int *out, int n)
{
    __shared__ int buf[2][BLOCK];
    int gid = blockIdx.x * BLOCK + threadIdx.x;
    int cur = 0;
    buf[cur][threadIdx.x] = gid < n ? in[gid] : 0;
    __syncthreads();
    for (int off = 1; off < BLOCK; off <<= 1) {
        int v = buf[cur][threadIdx.x];
        if (threadIdx.x >= off)
            v += buf[cur][threadIdx.x - off];
        buf[1 - cur][threadIdx.x] = v;
        cur = 1 - cur;
        __syncthreads();
    }
    if (gid < n)
        out[gid] = buf[cur][threadIdx.x];
}

template __global__ void block_scan<256>(const int *, int *, int);

int main()
{
    const int n = 1 << 16;
    int *in, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    const int threads = 256;
    block_scan<threads><<<n / threads, threads>>>(in, out, n);
    block_scan<threads><<<n / 512, 512>>>(in, out, n); // a second call written for the old 512-thread version
    cudaDeviceSynchronize();
    return 0;
}
