// A runner that launches a kernel written in an included header: its race is reported in the
// header, at the header's lines, with the `#include` that brings it in as a note.
#include <cuda_runtime.h>
#include "tile_kernels.cuh"

void run_tiled_sum(const float *in, float *out, int n, int blocks)
{
    tiled_sum<128><<<blocks, 128>>>(in, out, n);
}
