//--blockDim=64 --gridDim=1
// As ptrarray_lanes.cu, but the element index drops one bit too many.
__global__ void lanes(const float *x, float *y, float *z)
{
    float *outs[2] = { y, z };
    int t = threadIdx.x;
    outs[t & 1][t >> 2] = x[t];
}
