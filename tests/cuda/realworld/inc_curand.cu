//--blockDim=256 --gridDim=16
#include <curand_kernel.h>

// Monte-Carlo estimate of pi: each thread draws samples, the block counts hits in shared memory.
__global__ void piSamples(unsigned long long seed, int samples, unsigned *hits)
{
    __shared__ unsigned blockHits;
    curandState state;
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &state);
    if (threadIdx.x == 0)
        blockHits = 0;
    __syncthreads();
    unsigned mine = 0;
    for (int s = 0; s < samples; ++s) {
        float x = curand_uniform(&state);
        float y = curand_uniform(&state);
        if (x * x + y * y <= 1.0f)
            mine++;
    }
    atomicAdd(&blockHits, mine);
    __syncthreads();
    if (threadIdx.x == 0)
        hits[blockIdx.x] = blockHits;
}
