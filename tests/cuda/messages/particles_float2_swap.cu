// Particles staged in a shared array of float2; each thread then reads its mirror's
// position. Bug: no barrier between the stores and the mirrored loads. The element is shown
// as the source writes it (`pos[5].y`), not as a flat word number.
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void mirror(const float2 *in, float2 *out)
{
    __shared__ float2 pos[BLOCK];
    int t = threadIdx.x;
    pos[t] = in[blockIdx.x * BLOCK + t];
    float2 p = pos[BLOCK - 1 - t];
    out[blockIdx.x * BLOCK + t] = p;
}

int main()
{
    float2 *in, *out;
    cudaMalloc(&in, 64 * BLOCK * sizeof(float2));
    cudaMalloc(&out, 64 * BLOCK * sizeof(float2));
    mirror<<<64, BLOCK>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
