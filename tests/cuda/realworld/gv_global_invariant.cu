//--blockDim=64 --gridDim=1
// Repeated neighbour averaging on a ring of 64 values.
__global__ void smoothRing(float *x, int rounds)
{
    __shared__ float s[64];
    __function_wide_invariant(__write_implies(s, __write_offset_bytes(s) / sizeof(float) == threadIdx.x));
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    for (int r = 0; __global_invariant(r >= 0), r < rounds; r++) {
        float left = s[(threadIdx.x + 63) % 64];
        s[threadIdx.x] = 0.5f * (s[threadIdx.x] + left);
        __syncthreads();
    }
    x[threadIdx.x] = s[threadIdx.x];
}
