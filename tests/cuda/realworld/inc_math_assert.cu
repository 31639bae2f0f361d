//--blockDim=64 --gridDim=4
#include <math.h>
#include <assert.h>
#include <stdint.h>

// Normalizes 64-element vectors; the norm is computed by thread 0 from shared squares.
__global__ void normalize64(float *v)
{
    __shared__ float sq[64];
    __shared__ float norm;
    uint32_t t = threadIdx.x;
    assert(blockDim.x == 64);
    float x = v[blockIdx.x * 64 + t];
    sq[t] = x * x;
    __syncthreads();
    if (t == 0) {
        float s = 0.0f;
        for (int k = 0; k < 64; ++k)
            s += sq[k];
        norm = sqrtf(s);
    }
    v[blockIdx.x * 64 + t] = x / norm;
}
