//--blockDim=64 --gridDim=1
// As cond_select.cu, but the split point is 48 while the index still wraps at 32.
__global__ void split_halves(float *out)
{
    __shared__ float lo[32], hi[32];
    int t = threadIdx.x;
    float *p = t < 48 ? lo : hi;
    p[t & 31] = (float)t;
    __syncthreads();
    out[t] = lo[31 - (t & 31)] + hi[t & 31];
}
