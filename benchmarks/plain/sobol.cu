//--blockDim=64 --gridDim=[16,4]
// Sobol quasi-random sequence: blocks with blockIdx.y = d produce dimension d. The dimension's 32
// direction numbers are staged in shared memory by the first 32 threads; then each thread generates
// points i = its global x index, stepping by the x-extent of the grid, while i < N. Point i is the
// XOR of the direction numbers selected by the set bits of its Gray code i ^ (i >> 1), scaled by
// 2^-32.
// Output layout: out[d * N + i]. N, the number of points per dimension, is a compile-time constant:
// with a runtime n, blockIdx.y * n wraps around 2^32 for huge n (e.g. n = 2^31, d = 2 gives
// element i), so blocks of different dimensions could write the same element.
#define N 65536
__global__ void sobol(float *out, const unsigned *directions)
{
    __shared__ unsigned v[32];
    unsigned tid = threadIdx.x;
    if (tid < 32) {
        v[tid] = directions[blockIdx.y * 32 + tid];
    }
    __syncthreads();
    unsigned stride = blockDim.x * gridDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + tid; i < N; i += stride) {
        unsigned gray = i ^ (i >> 1);
        unsigned x = 0;
        for (unsigned b = 0; b < 32; b++) {
            if (((gray >> b) & 1u) != 0u) {
                x ^= v[b];
            }
        }
        out[blockIdx.y * N + i] = (float)x * 2.3283064365386963e-10f;
    }
}
