//--blockDim=128 --gridDim=64
// Uniform add of a large-array scan: block b adds uniforms[b + blockOffset] to the two elements
// per thread of its 2*blockDim.x chunk starting at baseIndex (the tail chunk may be partial).
#define UMUL(a, b) ((a) * (b))

__global__ void uniformAdd(float *g_data, const float *uniforms, unsigned int n,
                           unsigned int blockOffset, unsigned int baseIndex)
{
    __shared__ float uni;

    if (threadIdx.x == 0)
        uni = uniforms[blockIdx.x + blockOffset];

    const unsigned int address = UMUL(blockIdx.x, blockDim.x << 1) + baseIndex + threadIdx.x;

    __syncthreads();

    if (address >= n) return;
    g_data[address] += uni;
    if (address + blockDim.x < n)
        g_data[address + blockDim.x] += uni;
}
