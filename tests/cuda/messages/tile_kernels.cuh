// Kernels of a small library that runners include (tests/cuda/messages/header_kernel_*.cu).
// The tiled sum lacks the barrier that ends each tile: a fast thread overwrites `tile` for the
// next tile while slower threads still read the current one.
#pragma once

template <int TILE>
__global__ void tiled_sum(const float *in, float *out, int n)
{
    __shared__ float tile[TILE];
    float acc = 0.0f;
    for (int base = 0; base < n; base += TILE) {
        tile[threadIdx.x] = in[base + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < TILE; ++j)
            acc += tile[j];
    }
    out[blockIdx.x * TILE + threadIdx.x] = acc;
}
