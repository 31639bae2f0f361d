//--blockDim=256 --gridDim=64
// Reverses every blockDim-sized chunk of an array in place, staging the chunk in dynamic shared
// memory (launch with blockDim.x * sizeof(int) bytes).
__global__ void reverse_block(int *d)
{
    extern __shared__ int chunk[];
    int t = threadIdx.x;
    int base = (int)(blockIdx.x * blockDim.x);
    chunk[t] = d[base + t];
    __syncthreads();
    d[base + t] = chunk[(int)blockDim.x - 1 - t];
}
