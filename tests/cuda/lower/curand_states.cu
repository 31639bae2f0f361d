#include <curand_kernel.h>

__device__ float jitter(curandStatePhilox4_32_10_t *st, float scale)
{
    float4 r = curand_uniform4(st);
    return scale * (r.x + r.y);
}

// States kept in global memory between launches: copied to a local, used, written back.
__global__ void walk(curandState *states, const float *step, float *pos, int n)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    float x = pos[id];
    for (int i = 0; i < n; i++)
        x += step[i] * curand_normal(&local);
    unsigned int bits = curand(&local);
    states[id] = local;
    pos[id] = x + (bits & 1u);
}

__global__ void setup(curandState *states, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &states[id]);
    skipahead(1000ull, states + id);
}

__global__ void philox(unsigned long long seed, float *out)
{
    curandStatePhilox4_32_10_t s;
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &s);
    float2 g = curand_normal2(&s);
    out[id] = g.x + jitter(&s, 0.5f) + curand_log_normal(&s, 0.0f, 1.0f) + curand_poisson(&s, 4.0);
}
