//--blockDim=64 --gridDim=1
// As interproc_pick.cu, but the index drops one bit too many.
__device__ float *pick(float *a, float *b, bool first) { return first ? a : b; }

__global__ void route(float *out)
{
    __shared__ float even[32], odd[32];
    int t = threadIdx.x;
    pick(even, odd, (t & 1) == 0)[t >> 2] = (float)t;
    __syncthreads();
    out[t] = even[t >> 1] - odd[t >> 1];
}
