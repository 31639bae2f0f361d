//--blockDim=256 --gridDim=32
// Inclusive block scan, Hillis-Steele: log2(blockSize) steps, each reading one half of a
// double-buffered dynamic shared array and writing the other (so one barrier per step suffices).

// Typed view of the kernel's dynamic shared memory (one extern array for every T).
template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <unsigned int blockSize>
__global__ void scanHillisSteele(float *g_odata, const float *g_idata)
{
    __requires(blockDim.x == blockSize);
    float *temp = SharedMemory<float>(); // 2 * blockSize floats
    const unsigned int tid = threadIdx.x;
    const unsigned int gid = blockIdx.x * blockSize + tid;
    unsigned int pout = 0;
    unsigned int pin = 1;

    temp[tid] = g_idata[gid];
    __syncthreads();

    for (unsigned int offset = 1; offset < blockSize; offset <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= offset)
            temp[pout * blockSize + tid] = temp[pin * blockSize + tid] + temp[pin * blockSize + tid - offset];
        else
            temp[pout * blockSize + tid] = temp[pin * blockSize + tid];
        __syncthreads();
    }

    g_odata[gid] = temp[pout * blockSize + tid];
}

template __global__ void scanHillisSteele<256>(float *g_odata, const float *g_idata);
