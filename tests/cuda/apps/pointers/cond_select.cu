//--blockDim=64 --gridDim=1
// A pointer chosen by a thread-dependent condition: the lower half of the block writes `lo`,
// the upper half `hi`.
__global__ void split_halves(float *out)
{
    __shared__ float lo[32], hi[32];
    int t = threadIdx.x;
    float *p = t < 32 ? lo : hi;
    p[t & 31] = (float)t;
    __syncthreads();
    out[t] = lo[31 - (t & 31)] + hi[t & 31];
}
