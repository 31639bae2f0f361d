//--blockDim=256 --gridDim=64 --warp-sync=32
// Block sums of 2*blockSize elements, completely unrolled: a compile-time blockSize ladder for the
// steps >= 64 and a warp-synchronous tail (volatile shared pointer, no barriers) for the last warp.

// Typed view of the kernel's dynamic shared memory (one extern array for every T).
template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <class T, unsigned int blockSize>
__global__ void reduce5(T *g_idata, T *g_odata, unsigned int n)
{
    __requires(blockDim.x == blockSize);
    __requires(n <= 2 * blockSize * gridDim.x);
    T *sdata = SharedMemory<T>();

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;

    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockSize < n) mySum += g_idata[i + blockSize];

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

    // The last 64 partial sums are folded by warp 0 alone; its threads run in lock step, so the
    // volatile stores are seen by the next line without a barrier.
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

template __global__ void reduce5<float, 256>(float *g_idata, float *g_odata, unsigned int n);
