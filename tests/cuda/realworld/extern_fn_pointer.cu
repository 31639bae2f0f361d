//--blockDim=128 --gridDim=8
// Thread 0 fills the block's coefficient table through a helper defined elsewhere
// (it writes all 128 entries of the table it receives); the others read it too early.
__device__ void loadCoefficients(float *table, int blockId);

__global__ void applyCoefficients(float *x)
{
    __shared__ float coeffs[128];
    if (threadIdx.x == 0)
        loadCoefficients(coeffs, blockIdx.x);
    int g = blockIdx.x * 128 + threadIdx.x;
    x[g] *= coeffs[threadIdx.x];
}
