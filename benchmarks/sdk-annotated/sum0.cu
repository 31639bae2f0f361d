//--blockDim=256 --gridDim=64
// Block mean subtraction: a __device__ block-sum helper (shared tree, result broadcast from s[0])
// returns the sum of the block's values to every thread; each thread centres its element.
#define BLOCK_SIZE 256
#define INV_BLOCK_SIZE (1.0f / (float)BLOCK_SIZE)

// Sum of v over the block, returned to every thread. s: blockSize floats of shared memory.
template <unsigned int blockSize>
__device__ float blockSum(float *s, float v)
{
    const unsigned int tid = threadIdx.x;
    s[tid] = v;
    for (unsigned int stride = blockSize / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (tid < stride) s[tid] += s[tid + stride];
    }
    // Publishes s[0], written by thread 0 in the last step, to all threads.
    __syncthreads();
    return s[0];
}

__global__ void sum0(float *out, const float *in)
{
    __shared__ float s[BLOCK_SIZE];
    const unsigned int g = blockIdx.x * BLOCK_SIZE + threadIdx.x;
    const float v = in[g];
    const float total = blockSum<BLOCK_SIZE>(s, v);
    out[g] = v - total * INV_BLOCK_SIZE;
}
