// The kernel is two includes away: the report names both `#include` lines, innermost first.
#include "include/kernels.cuh"

void run_tiled_sum(const float *in, float *out, int n, int blocks)
{
    tiled_sum<128><<<blocks, 128>>>(in, out, n);
}
