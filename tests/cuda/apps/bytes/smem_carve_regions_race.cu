// Sparse gather with a staged (value, column) pair per thread (Parboil style): one dynamic
// shared allocation is carved into a float region and an int region; after the barrier each
// thread combines the value and column index staged by its neighbour. Bug: the offset of the
// int region is NA bytes, not NA floats, so b starts inside a (byte 256, a[64]).
#include <cstdio>
#include <cuda_runtime.h>

#define NT 256
#define NA NT   // floats in region a
#define NB NT   // ints in region b

__global__ void gather_pairs(const float *val, const int *col, const float *x, float *y)
{
    extern __shared__ char smem[];
    float *a = (float *)smem;
    int *b = (int *)&smem[NA];
    int t = threadIdx.x;
    int g = blockIdx.x * NT + t;

    a[t] = val[g];
    b[t] = col[g];
    __syncthreads();
    int u = (t + 1) % NT;
    y[g] = a[t] * x[b[t]] + a[u] * x[b[u]];
}

int main()
{
    const int rows = 1 << 16, n = rows * NT, xlen = 1 << 20;
    float *val, *x, *y;
    int *col;
    cudaMalloc(&val, n * sizeof(float));
    cudaMalloc(&col, n * sizeof(int));
    cudaMalloc(&x, xlen * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemset(col, 0, n * sizeof(int));
    size_t shmem = NA * sizeof(float) + NB * sizeof(int);
    gather_pairs<<<rows, NT, shmem>>>(val, col, x, y);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(val); cudaFree(col); cudaFree(x); cudaFree(y);
    return 0;
}
