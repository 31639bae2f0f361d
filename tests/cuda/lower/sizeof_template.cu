// sizeof of scalars, halves and vector types, also through a template parameter.
#include <cuda_fp16.h>
template <typename T>
__global__ void widths(int *out)
{
    out[threadIdx.x] = sizeof(T) + 100 * sizeof(float3) + 10000 * sizeof(half);
}
template __global__ void widths<float4>(int *);
template __global__ void widths<double>(int *);
template __global__ void widths<char2>(int *);
