// Vectorized axpy followed by a pairwise exchange, four floats at a time through
// `reinterpret_cast<float4 *>`: odd vectors take their even partner's new value. Bug: the
// partner's vector is read back from y right after this thread's store, with no barrier, so it
// may still hold the old value (the partner may not have stored yet).
#include <cuda_runtime.h>

__global__ void axpyPairs(float a, const float *__restrict__ x, float *y, float *z)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 xv = reinterpret_cast<const float4 *>(x)[i];
    float4 yv = reinterpret_cast<float4 *>(y)[i];
    float4 r = make_float4(a * xv.x + yv.x, a * xv.y + yv.y, a * xv.z + yv.z, a * xv.w + yv.w);
    reinterpret_cast<float4 *>(y)[i] = r;
    float4 partner = reinterpret_cast<const float4 *>(y)[i ^ 1];
    reinterpret_cast<float4 *>(z)[i] = (i & 1) ? partner : r;
}

int main()
{
    const int n = 1 << 20;
    float *x, *y, *z;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&z, n * sizeof(float));
    axpyPairs<<<n / 4 / 256, 256>>>(2.0f, x, y, z);
    cudaDeviceSynchronize();
    return 0;
}
