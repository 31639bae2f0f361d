//--blockDim=128 --gridDim=32
#include <curand_kernel.h>

// Monte-Carlo pricing of a European call: one XORWOW generator per thread lives in global
// memory between launches; each thread simulates `paths` log-normal end prices, then the block
// sums the discounted payoffs in shared memory (tree reduction).
#define THREADS 128

__device__ float endPrice(curandState *rng, float s0, float drift, float vol)
{
    float z = curand_normal(rng);
    return s0 * expf(drift + vol * z);
}

__global__ void priceCall(curandState *states, float s0, float strike, float drift, float vol,
                          float discount, int paths, float *blockSums)
{
    __shared__ float partial[THREADS];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;

    curandState rng = states[gid];
    float payoff = 0.0f;
    for (int p = 0; p < paths; ++p) {
        float st = endPrice(&rng, s0, drift, vol);
        payoff += fmaxf(st - strike, 0.0f);
    }
    states[gid] = rng;

    partial[tid] = discount * payoff / paths;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        blockSums[blockIdx.x] = partial[0];
}
