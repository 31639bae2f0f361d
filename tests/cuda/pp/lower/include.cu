// pp: -I ../include
#include "params.cuh"
#include "params.cuh"
#include "local.cuh"
#include <cuda_runtime.h>

__global__ void transpose(float *out, const float *in) {
    __shared__ float tile[TILE * TILE];
    index_t x = threadIdx.x, y = threadIdx.y;
    tile[AT(y, x)] = in[AT(y, x)];
    __syncthreads();
    out[AT(y, x)] = tile[AT(x, y)];
    SCALE(out, x);
}
