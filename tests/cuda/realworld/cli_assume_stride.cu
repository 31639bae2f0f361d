//--blockDim=128 --gridDim=16
// Row scaling whose precondition is given on the command line (`--assume`), not in the file.
__global__ void scaleRows(float *data, int stride, float alpha)
{
    data[blockIdx.x * stride + threadIdx.x] *= alpha;
}
