#include <curand_kernel.h>

__global__ void quasi(curandStateSobol32_t *states, float *out)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStateSobol32_t s = states[id];
    out[id] = curand_uniform(&s);
}
