//--blockDim=128 --gridDim=16
// The same row scaling without any precondition on the pitch.
__global__ void scaleRows(float *data, int stride, float alpha)
{
    data[blockIdx.x * stride + threadIdx.x] *= alpha;
}
