#include <cstdio>
#include <cuda_runtime.h>

const int n = 128;

// Static-shared reversal as in many tutorials, with the barrier forgotten.
__global__ void staticReverse(int *d, int len)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    int tr = len - t - 1;
    s[t] = d[t];
    d[t] = s[tr];
}

int main()
{
    int a[n], r[n];
    for (int i = 0; i < n; i++) {
        a[i] = i;
        r[i] = n - i - 1;
    }
    int *d_d;
    cudaMalloc(&d_d, n * sizeof(int));
    cudaMemcpy(d_d, a, n * sizeof(int), cudaMemcpyHostToDevice);
    staticReverse<<<1, n>>>(d_d, n);
    cudaMemcpy(a, d_d, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        if (a[i] != r[i])
            printf("Error: a[%d] != r[%d] (%d, %d)\n", i, i, a[i], r[i]);
    cudaFree(d_d);
    return 0;
}
