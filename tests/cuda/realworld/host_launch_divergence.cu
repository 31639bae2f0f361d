#include <cstdio>

// The upper half of the block skips a barrier; launched with one block of 128 threads.
__global__ void halfSync(float *d)
{
    unsigned t = threadIdx.x;
    float v = d[t] * 2.0f;
    if (t < 64) {
        __syncthreads();
    }
    d[t] = v;
}

int main(void)
{
    float *d;
    cudaMalloc((void **)&d, 128 * sizeof(float));
    halfSync<<<1, 128>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
