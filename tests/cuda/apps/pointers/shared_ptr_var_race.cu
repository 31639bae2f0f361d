//--blockDim=64 --gridDim=4
// As shared_ptr_var.cu without the barrier after publishing the pointer.
__global__ void per_block(float *data)
{
    __shared__ float *base;
    if (threadIdx.x == 0)
        base = data + blockIdx.x * 64;
    base[threadIdx.x] *= 2.0f;
}
