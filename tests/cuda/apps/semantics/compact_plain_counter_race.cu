// A buggy compaction: the output position is read and bumped with plain loads and stores instead
// of an atomic, so two threads can take the same slot (a classic student bug).
#include <cuda_runtime.h>

__global__ void compact_positive(const int *in, int n, int *out, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0) {
        int pos = *count;
        out[pos] = in[i];
        *count = pos + 1;
    }
}

int main()
{
    int n = 1 << 16;
    int *in, *out, *count;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    compact_positive<<<256, 256>>>(in, n, out, count);
    cudaDeviceSynchronize();
    return 0;
}
