//--blockDim=512 --gridDim=32
// Block maximum in dynamically sized shared memory (size given at launch).
__global__ void blockMax(const int *in, int *out)
{
    extern __shared__ int smem[];
    unsigned t = threadIdx.x;
    smem[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            smem[t] = max(smem[t], smem[t + s]);
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = smem[0];
}
