// A block reduction library: one template, instantiated for the block sizes the host launches
// (a `switch` over the configured size). `--kernel 'blockReduce<128>'` checks the instance the
// report names; the 128-thread instance's tree misses its last step (`s > 1`), so `s[0]` keeps
// only half the sum — a wrong result but no race. The 256-thread one is not checked.
#include <cuda_runtime.h>

template <unsigned BLOCK>
__global__ void blockReduce(const float *in, float *out)
{
    __shared__ float s[BLOCK];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (unsigned k = BLOCK / 2; k > 1; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

void launch(const float *in, float *out, int blocks, int size)
{
    switch (size) {
    case 128: blockReduce<128><<<blocks, 128>>>(in, out); break;
    case 256: blockReduce<256><<<blocks, 256>>>(in, out); break;
    }
}
