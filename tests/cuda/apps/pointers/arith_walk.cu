//--blockDim=64 --gridDim=1
// Each thread walks its own chunk of a shared buffer with `*p++`, then reads its neighbour's
// chunk after the barrier.
#define CHUNK 4
__global__ void chunks(const int *in, int *out)
{
    __shared__ int s[64 * CHUNK];
    int t = threadIdx.x;
    int *p = s + t * CHUNK;
    for (int k = 0; k < CHUNK; ++k)
        *p++ = in[t * CHUNK + k];
    __syncthreads();
    const int *q = s + ((t + 1) % 64) * CHUNK;
    int acc = 0;
    for (int k = 0; k < CHUNK; ++k)
        acc += q[k];
    out[t] = acc;
}
