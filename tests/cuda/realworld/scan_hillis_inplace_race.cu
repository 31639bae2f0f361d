//--blockDim=512 --gridDim=1
// In-place inclusive scan with one barrier per step: the read of the neighbour and the update
// are not separated.
__global__ void scanInPlace(float *g)
{
    __shared__ float temp[512];
    int t = threadIdx.x;
    temp[t] = g[t];
    __syncthreads();
    for (int offset = 1; offset < 512; offset *= 2) {
        if (t >= offset)
            temp[t] += temp[t - offset];
        __syncthreads();
    }
    g[t] = temp[t];
}
