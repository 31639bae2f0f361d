//--blockDim=128 --gridDim=64
// LayerNorm over rows of 512 features: warp-shuffle partial sums, one shared slot per warp.
#define D 512

__device__ __forceinline__ float warpReduceSum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__global__ void layerNorm(const float *x, const float *gamma, const float *beta, float *y, float eps)
{
    __shared__ float partSum[4], partSq[4];
    const float *row = x + blockIdx.x * D;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    float s = 0.0f, sq = 0.0f;
    for (int c = threadIdx.x; c < D; c += 128) {
        float v = row[c];
        s += v;
        sq += v * v;
    }
    s = warpReduceSum(s);
    sq = warpReduceSum(sq);
    if (lane == 0) {
        partSum[warp] = s;
        partSq[warp] = sq;
    }
    __syncthreads();
    float mean = (partSum[0] + partSum[1] + partSum[2] + partSum[3]) / D;
    float var = (partSq[0] + partSq[1] + partSq[2] + partSq[3]) / D - mean * mean;
    float rstd = rsqrtf(var + eps);
    for (int c = threadIdx.x; c < D; c += 128)
        y[blockIdx.x * D + c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
}
