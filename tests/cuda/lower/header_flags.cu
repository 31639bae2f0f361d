//pass
//--blockDim=64 --gridDim=4 -DWIDTH=64 -DUSE_SHIFT --no-inline
//--loop-unwind=3 --only-divergence --made-up-flag
// GPUVerify's command line in the header: -D defines macros, the rest is read and ignored.
__global__ void rotate(int *data)
{
    __shared__ int buf[WIDTH];
    int t = threadIdx.x;
    buf[t] = data[blockIdx.x * WIDTH + t];
    __syncthreads();
#ifdef USE_SHIFT
    data[blockIdx.x * WIDTH + t] = buf[(t + 1) % WIDTH] << 1;
#else
    data[blockIdx.x * WIDTH + t] = buf[(t + 1) % WIDTH];
#endif
}
