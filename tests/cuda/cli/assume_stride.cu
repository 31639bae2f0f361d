//--blockDim=128 --gridDim=16
// Rows of a pitched matrix: disjoint between blocks only when the pitch is at least 128.
__global__ void scaleRows(float *data, int pitch, float alpha)
{
    data[blockIdx.x * pitch + threadIdx.x] *= alpha;
}
