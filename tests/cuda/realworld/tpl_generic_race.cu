//--blockDim=128 --gridDim=16
// Generic rotate-by-one of a block's chunk, without the barrier between store and load.
template <typename T>
__global__ void rotateChunk(T *data)
{
    __shared__ T s[128];
    unsigned g = blockIdx.x * 128 + threadIdx.x;
    s[threadIdx.x] = data[g];
    data[g] = s[(threadIdx.x + 1) & 127];
}
