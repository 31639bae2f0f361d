//--blockDim=128 --gridDim=32
// A generic rotate-by-one of a block's elements; never instantiated in this file.
template <typename T>
__global__ void rotate(T *data)
{
    __shared__ T s[128];
    int t = threadIdx.x;
    s[t] = data[blockIdx.x * 128 + t];
    __syncthreads();
    data[blockIdx.x * 128 + t] = s[(t + 1) % 128];
}
