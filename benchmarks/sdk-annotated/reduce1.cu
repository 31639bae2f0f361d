//--blockDim=256 --gridDim=64
// Block sums, interleaved addressing with a strided index: in step s thread tid works on
// index = 2*s*tid (contiguous active threads, no modulo).

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
__global__ void reduce1(T *g_idata, T *g_odata, unsigned int n)
{
    __requires(__is_pow2(blockDim.x));
    __requires(n <= blockDim.x * gridDim.x);
    T *sdata = SharedMemory<T>();

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    sdata[tid] = (i < n) ? g_idata[i] : 0;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x) {
            sdata[index] += sdata[index + s];
        }
        __syncthreads();
    }

    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template __global__ void reduce1<float>(float *g_idata, float *g_odata, unsigned int n);
