//--blockDim=256 --gridDim=4
// Integer histogram of byte values with typedef'd element types.
typedef unsigned int uint;
typedef unsigned char uchar;
typedef uint bin_t;

__global__ void byteHist(const uchar *data, int n, bin_t *hist)
{
    __shared__ bin_t local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 256 * 4)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}
