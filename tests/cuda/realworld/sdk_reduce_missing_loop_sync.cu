//--blockDim=256 --gridDim=64
// Sequential-addressing reduction where the barrier inside the loop was dropped
// ("it still worked on my card").
__global__ void reduceSeq(const float *g_idata, float *g_odata)
{
    __shared__ float sdata[256];
    unsigned int tid = threadIdx.x;
    sdata[tid] = g_idata[blockIdx.x * 256 + tid];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
