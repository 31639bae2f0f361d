//--blockDim=256 --gridDim=64
// Uniform update of a multi-block scan: block b adds the scanned total of the preceding blocks,
// d_Buffer[b], to its 256 uint4 elements (4 values per thread). Thread 0 stages it in shared memory.
typedef unsigned int uint;

__device__ inline void addToAll(uint4 &v, uint a)
{
    v.x += a;
    v.y += a;
    v.z += a;
    v.w += a;
}

__global__ void uniformUpdate(uint4 *d_Data, const uint *d_Buffer, uint count4)
{
    __shared__ uint buf;
    const uint pos = blockIdx.x * blockDim.x + threadIdx.x;

    if (threadIdx.x == 0)
        buf = d_Buffer[blockIdx.x];

    __syncthreads();

    if (pos >= count4) return;
    uint4 data4 = d_Data[pos];
    addToAll(data4, buf);
    d_Data[pos] = data4;
}
