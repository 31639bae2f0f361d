template <unsigned int blockSize, typename T>
__global__ void reduce(T *g_idata, T *g_odata) {
    __shared__ T sdata[blockSize];
    unsigned int tid = threadIdx.x;
    sdata[tid] = g_idata[blockIdx.x * blockSize + tid];
    __syncthreads();
    if (blockSize >= 512) {
        if (tid < 256) sdata[tid] += sdata[tid + 256];
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (tid < 128) sdata[tid] += sdata[tid + 128];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template __global__ void reduce<256, float>(float *g_idata, float *g_odata);
