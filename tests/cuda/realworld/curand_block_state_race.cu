//--blockDim=256 --gridDim=16
#include <curand_kernel.h>

// Dropout with one generator per block instead of one per thread: every thread of a block
// copies states[blockIdx.x], draws from its copy and stores it back. The loads and stores of
// the shared generator race (and every thread draws the same mask bits).
__global__ void dropout(curandState *states, const float *x, float *y, float keep, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    curandState st = states[blockIdx.x];
    float u = curand_uniform(&st);
    if (i < n)
        y[i] = u < keep ? x[i] / keep : 0.0f;
    states[blockIdx.x] = st;
}

__global__ void initStates(curandState *states, unsigned long long seed)
{
    if (threadIdx.x == 0)
        curand_init(seed, blockIdx.x, 0, &states[blockIdx.x]);
}
