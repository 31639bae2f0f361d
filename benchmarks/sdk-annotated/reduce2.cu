//--blockDim=256 --gridDim=64
// Block sums, sequential addressing: in step s the first s threads add the upper half
// [s, 2s) onto the lower half, s halving from blockDim.x / 2.

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
__global__ void reduce2(T *g_idata, T *g_odata, unsigned int n)
{
    __requires(__is_pow2(blockDim.x));
    __requires(n <= blockDim.x * gridDim.x);
    T *sdata = SharedMemory<T>();

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template __global__ void reduce2<float>(float *g_idata, float *g_odata, unsigned int n);
