//--blockDim=[16,16] --gridDim=[8,8]
// "In-place" transpose of a 128 x 128 matrix by swapping through registers: each element is
// read by one thread and overwritten by another, possibly in another block.
__global__ void transposeInPlace(float *m)
{
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    float v = m[y * 128 + x];
    m[x * 128 + y] = v;
}
