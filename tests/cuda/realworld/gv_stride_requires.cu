//--blockDim=128 --gridDim=16
// Scales the first 128 entries of each of 16 rows of a pitched matrix.
// The precondition is what makes the rows of different blocks disjoint.
__global__ void scaleRows(float *data, int stride, float alpha)
{
    __requires(stride >= 128);
    __requires(stride <= 4096);
    data[blockIdx.x * stride + threadIdx.x] *= alpha;
}
