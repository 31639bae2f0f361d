// Hillis-Steele inclusive scan done in place, the way a first attempt writes it: each step adds
// the element `offset` to the left. Thread t reads s[t - offset] in the same statement in which
// thread t - offset writes it, so no barrier between statements can order them; the textbook
// cure reads into a register, synchronizes, then writes.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void scan_inplace(const float *in, float *out, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int g = blockIdx.x * BLOCK + t;
    s[t] = g < n ? in[g] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < BLOCK; offset *= 2) {
        const bool autosync_g18 = t >= offset;
        float autosync_v18;
        if (autosync_g18) autosync_v18 = s[t - offset];
        __syncthreads();
        if (autosync_g18) s[t] += autosync_v18;
        __syncthreads();
    }
    if (g < n)
        out[g] = s[t];
}

int main()
{
    const int n = 1 << 16;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    scan_inplace<<<n / BLOCK, BLOCK>>>(d_in, d_out, n);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
