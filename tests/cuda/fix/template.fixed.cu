//--blockDim=256 --gridDim=4
template <unsigned int blockSize, typename T>
__global__ void reduce(const T *in, T *out) {
    __shared__ T sdata[blockSize];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockSize + tid];
    __syncthreads();
    if (blockSize >= 256) {
        if (tid < 128) sdata[tid] += sdata[tid + 128];
    }
    __syncthreads();
    if (blockSize >= 128) {
        if (tid < 64) sdata[tid] += sdata[tid + 64];
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

template __global__ void reduce<256, float>(const float *in, float *out);
