//--blockDim=256 --gridDim=16
// Occupancy-tuned histogram equalization step; the scan of the 256 bins misses a barrier.
__global__ void __launch_bounds__(256, 4) cdfScan(const unsigned *hist, unsigned *cdf)
{
    __shared__ unsigned s[256];
    unsigned t = threadIdx.x;
    s[t] = hist[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned off = 1; off < 256; off <<= 1) {
        unsigned v = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += v;
    }
    cdf[blockIdx.x * 256 + t] = s[t];
}
