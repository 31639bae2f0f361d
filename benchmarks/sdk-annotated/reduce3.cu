//--blockDim=256 --gridDim=64
// Block sums of 2*blockDim.x elements: the first addition happens during the load, the running
// sum stays in a register (mySum), then sequential addressing as in reduce2.

// Typed view of the kernel's dynamic shared memory (one extern array for every T).
template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <class T>
__global__ void reduce3(T *g_idata, T *g_odata, unsigned int n)
{
    __requires(__is_pow2(blockDim.x));
    __requires(n <= 2 * blockDim.x * gridDim.x);
    T *sdata = SharedMemory<T>();

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;

    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];

    sdata[tid] = mySum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] = mySum = mySum + sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

template __global__ void reduce3<float>(float *g_idata, float *g_odata, unsigned int n);
