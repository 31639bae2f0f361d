//--blockDim=128 --gridDim=4
template <class T> struct SharedMemory {
    __device__ inline operator T *() {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <class T>
__device__ void step(volatile T *sdata, unsigned int tid, unsigned int s) {
    if (tid < s)
        sdata[tid] = sdata[tid] + sdata[tid + s];
    __syncthreads();
}

template <class T, unsigned int blockSize>
__global__ void reduce4(T *g_idata, T *g_odata, unsigned int n) {
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    T mySum = (i < n) ? g_idata[i] : 0;
    if (i + blockSize < n)
        mySum += g_idata[i + blockSize];
    sdata[tid] = mySum;
    __syncthreads();
    if (blockSize >= 512) step<T>(sdata, tid, 256);
    if (blockSize >= 256) step<T>(sdata, tid, 128);
    if (blockSize >= 128) step<T>(sdata, tid, 64);
    for (unsigned int s = 32; s > 0; s >>= 1)
        step(sdata, tid, s);
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

template __global__ void reduce4<float, 128>(float *g_idata, float *g_odata, unsigned int n);
template __global__ void reduce4<int, 256>(int *g_idata, int *g_odata, unsigned int n);
