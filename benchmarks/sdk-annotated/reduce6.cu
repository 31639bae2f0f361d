//--blockDim=256 --gridDim=64 --warp-sync=32
// Partial sums of n elements: each thread first accumulates a grid-stride series of element pairs
// in a register (nIsPow2 skips the bounds test of the second element), then the block folds its
// blockSize partial sums as in reduce5 (blockSize ladder, warp-synchronous tail).

// Typed view of the kernel's dynamic shared memory (one extern array for every T).
template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(T *g_idata, T *g_odata, unsigned int n)
{
    __requires(blockDim.x == blockSize);
    T *sdata = SharedMemory<T>();

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
    unsigned int gridSize = blockSize * 2 * gridDim.x;

    T mySum = 0;
    while (i < n) {
        mySum += g_idata[i];
        if (nIsPow2 || i + blockSize < n) mySum += g_idata[i + blockSize];
        i += gridSize;
    }

    sdata[tid] = mySum;
    __syncthreads();

    if (blockSize >= 512) {
        if (tid < 256) {
            sdata[tid] = mySum = mySum + sdata[tid + 256];
        }
        __syncthreads();
    }

    if (blockSize >= 256) {
        if (tid < 128) {
            sdata[tid] = mySum = mySum + sdata[tid + 128];
        }
        __syncthreads();
    }

    if (blockSize >= 128) {
        if (tid < 64) {
            sdata[tid] = mySum = mySum + sdata[tid + 64];
        }
        __syncthreads();
    }

    // Warp 0 folds the last 64 values in lock step (volatile: every store reaches shared memory).
    if (tid < 32) {
        volatile T *smem = sdata;
        if (blockSize >= 64) smem[tid] = mySum = mySum + smem[tid + 32];
        if (blockSize >= 32) smem[tid] = mySum = mySum + smem[tid + 16];
        if (blockSize >= 16) smem[tid] = mySum = mySum + smem[tid + 8];
        if (blockSize >= 8) smem[tid] = mySum = mySum + smem[tid + 4];
        if (blockSize >= 4) smem[tid] = mySum = mySum + smem[tid + 2];
        if (blockSize >= 2) smem[tid] = mySum = mySum + smem[tid + 1];
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template __global__ void reduce6<float, 256, false>(float *g_idata, float *g_odata, unsigned int n);
