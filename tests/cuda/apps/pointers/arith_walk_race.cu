//--blockDim=64 --gridDim=1
// As arith_walk.cu, but the chunk start is computed with a stride of 3 while 4 elements are
// written: neighbouring chunks overlap by one element.
#define CHUNK 4
__global__ void chunks(const int *in, int *out)
{
    __shared__ int s[64 * CHUNK];
    int t = threadIdx.x;
    int *p = s + t * (CHUNK - 1);
    for (int k = 0; k < CHUNK; ++k)
        *p++ = in[t * CHUNK + k];
    __syncthreads();
    const int *q = s + ((t + 1) % 64) * CHUNK;
    int acc = 0;
    for (int k = 0; k < CHUNK; ++k)
        acc += q[k];
    out[t] = acc;
}
