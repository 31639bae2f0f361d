//--blockDim=64 --gridDim=[16,4]
// Sobol quasi-random sequence: blockIdx.y selects the dimension, whose 32 direction numbers are
// staged in shared memory; each thread then generates points (grid-stride) from their Gray codes.
#define n_directions 32
#define N_VECTORS 65536 // points per dimension (a compile-time size keeps the output rows apart)
#define K_2POW32 2.3283064365386963e-10f // 2^-32
#define UMUL(a, b) ((a) * (b))

// Point i of one dimension: XOR of the direction numbers selected by the set bits of i's Gray code.
__device__ inline unsigned int sobolPoint(const unsigned int *v, unsigned int i)
{
    unsigned int g = i ^ (i >> 1);
    unsigned int x = 0;
    for (unsigned int k = 0; k < n_directions; k++) {
        if (g == 0) break;
        if (g & 1) x ^= v[k];
        g >>= 1;
    }
    return x;
}

__global__ void sobolGPU_kernel(float *d_output, const unsigned int *d_directions)
{
    __shared__ unsigned int v[n_directions];

    d_directions += UMUL(n_directions, blockIdx.y);
    d_output += UMUL(N_VECTORS, blockIdx.y);

    if (threadIdx.x < n_directions)
        v[threadIdx.x] = d_directions[threadIdx.x];

    __syncthreads();

    const unsigned int stride = UMUL(blockDim.x, gridDim.x);
    for (unsigned int i = UMUL(blockIdx.x, blockDim.x) + threadIdx.x; i < N_VECTORS; i += stride)
        d_output[i] = (float)sobolPoint(v, i) * K_2POW32;
}
