//--blockDim=256 --gridDim=8
// Per-warp partial sums, with a contract on the device helper.
__device__ unsigned warpOf(unsigned t)
{
    __requires(t < 256);
    __ensures(__return_val_int() < 8);
    return t / 32;
}

__global__ void warpPartials(const float *in, float *partial)
{
    __shared__ float acc[8];
    unsigned t = threadIdx.x;
    if (t < 8)
        acc[t] = 0.0f;
    __syncthreads();
    if (t % 32 == 0) {
        float s = 0.0f;
        for (int k = 0; k < 32; ++k)
            s += in[blockIdx.x * 256 + t + k];
        acc[warpOf(t)] = s;
    }
    __syncthreads();
    if (t < 8)
        partial[blockIdx.x * 8 + t] = acc[t];
}
