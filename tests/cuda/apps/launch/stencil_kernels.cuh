// Kernels of a small 1-D stencil library (header part): the block size is the library's
// RADIUS-padded tile, fixed by the host code that includes this header.
#pragma once

#define RADIUS 3
#define BLOCK 128

__global__ void stencil_1d(const float *in, float *out, int n)
{
    __shared__ float temp[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    temp[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS) {
        temp[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.0f;
        temp[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0.0f;
    }
    __syncthreads();
    float r = 0.0f;
    for (int o = -RADIUS; o <= RADIUS; ++o)
        r += temp[l + o];
    if (g < n)
        out[g] = r;
}
