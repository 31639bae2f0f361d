//--blockDim=256 --gridDim=64
// Block sum: warp shuffles within warps, one shared slot per warp, then the first warp.
__inline__ __device__ float warpSum(float v)
{
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}

__global__ void blockSum(const float *in, float *out)
{
    __shared__ float warpTotals[8];
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    float v = warpSum(in[blockIdx.x * 256 + threadIdx.x]);
    if (lane == 0)
        warpTotals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < 8 ? warpTotals[lane] : 0.0f;
        v = warpSum(v);
        if (lane == 0)
            atomicAdd(out, v);
    }
}
