#include <cuda_runtime.h>

// Two launches that disagree, and one whose block size is only known at run time: no geometry
// is taken from the file for either kernel (a note says why).
__global__ void scale(float *v, float a) { v[blockIdx.x * blockDim.x + threadIdx.x] *= a; }

__global__ void shift(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] + 1;
}

void run(float *d, int *e, int n, int threads)
{
    scale<<<64, 128>>>(d, 2.0f);
    scale<<<32, 256>>>(d, 0.5f);
    dim3 block(threads);
    shift<<<(n + threads - 1) / threads, block>>>(e, n);
}
