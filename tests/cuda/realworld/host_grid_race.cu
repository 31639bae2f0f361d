#include <cuda_runtime.h>

// Per-thread scratch results, indexed by the thread only; main launches several blocks.
__global__ void square(const int *in, int *out)
{
    int t = threadIdx.x;
    out[t] = in[t] * in[t];
}

int main()
{
    int *in, *out;
    cudaMalloc(&in, 128 * sizeof(int));
    cudaMalloc(&out, 128 * sizeof(int));
    square<<<4, 128>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
