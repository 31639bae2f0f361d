//--blockDim=256 --gridDim=8
// A block-wide "any thread saw an error" vote placed under a thread-dependent branch: the
// barrier inside __syncthreads_or is reached by only the threads of the first half.
__global__ void flagErrors(const int *status, int *blockError)
{
    int t = threadIdx.x;
    int bad = status[blockIdx.x * 256 + t] < 0;
    if (t < 128) {
        if (__syncthreads_or(bad) && t == 0)
            blockError[blockIdx.x] = 1;
    }
}
