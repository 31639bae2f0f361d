//--blockDim=256 --gridDim=16
// Shared-memory histogram of 8-bit values where neither phase boundary is synchronized.
__global__ void histo(const unsigned char *buffer, long size, unsigned int *histo)
{
    __shared__ unsigned int temp[256];
    temp[threadIdx.x] = 0;
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int offset = blockDim.x * gridDim.x;
    while (i < size) {
        atomicAdd(&temp[buffer[i]], 1);
        i += offset;
    }
    atomicAdd(&histo[threadIdx.x], temp[threadIdx.x]);
}
