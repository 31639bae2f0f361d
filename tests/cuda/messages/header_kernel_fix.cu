// `fix` edits only the file it is given: the race of a kernel written in an included header is
// listed as remaining (with the header's location), and the runner's own kernel is fixed.
#include "tile_kernels.cuh"

__global__ void shift(float *data)
{
    __shared__ float s[256];
    s[threadIdx.x] = data[threadIdx.x];
    data[threadIdx.x] = s[(threadIdx.x + 1) % 256];
}

void run(const float *in, float *out, int n, int blocks)
{
    tiled_sum<128><<<blocks, 128>>>(in, out, n);
    shift<<<1, 256>>>(out);
}
