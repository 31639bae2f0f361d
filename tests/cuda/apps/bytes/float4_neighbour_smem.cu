// 1-D forward difference with float4 loads (SDK style): each thread stages four floats in
// shared memory as one float4 and, after the barrier, reads the next thread's float4 to form
// d[i] = x[i+1] - x[i] for its four outputs. The last packet of a block wraps around.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK 256
#define FLOAT4(v) (reinterpret_cast<float4 *>(&(v))[0])

__global__ void diff4(float *x, float *d)
{
    __shared__ float s[BLOCK * 4];
    int t = threadIdx.x;
    int g = (blockIdx.x * BLOCK + t) * 4;

    FLOAT4(s[4 * t]) = FLOAT4(x[g]);
    __syncthreads();
    float4 a = FLOAT4(s[4 * t]);
    float4 b = FLOAT4(s[4 * ((t + 1) % BLOCK)]);
    float4 r;
    r.x = a.y - a.x;
    r.y = a.z - a.y;
    r.z = a.w - a.z;
    r.w = b.x - a.w;
    FLOAT4(d[g]) = r;
}

int main(int argc, char **argv)
{
    const int n = 1 << 24;
    size_t bytes = n * sizeof(float);
    float *h = (float *)malloc(bytes);
    for (int i = 0; i < n; ++i)
        h[i] = (float)i;
    float *dx, *dd;
    cudaMalloc((void **)&dx, bytes);
    cudaMalloc((void **)&dd, bytes);
    cudaMemcpy(dx, h, bytes, cudaMemcpyHostToDevice);
    dim3 threads(BLOCK);
    dim3 grid(n / (BLOCK * 4));
    diff4<<<grid, threads>>>(dx, dd);
    cudaMemcpy(h, dd, bytes, cudaMemcpyDeviceToHost);
    printf("d[0] = %f\n", h[0]);
    cudaFree(dx);
    cudaFree(dd);
    free(h);
    return 0;
}
