//--blockDim=64 --gridDim=1
// A local array of two global pointers indexed by the thread's parity.
__global__ void lanes(const float *x, float *y, float *z)
{
    float *outs[2] = { y, z };
    int t = threadIdx.x;
    outs[t & 1][t >> 1] = x[t];
}
