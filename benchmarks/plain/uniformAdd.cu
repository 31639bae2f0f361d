//--blockDim=128 --gridDim=64
// Uniform add of a multi-block scan where every block covered 2*blockDim elements: block b adds
// uniforms[b + blockOffset] to the elements baseIndex + b*256 + tid and ... + tid + 128 (the second
// one only when it lies within the block's count n). Thread 0 reads the value into shared memory.
__global__ void uniformAdd(float *g_data, const float *uniforms, int n, int blockOffset, int baseIndex)
{
    __shared__ float uni;
    int tid = threadIdx.x;
    if (tid == 0) {
        uni = uniforms[(int)blockIdx.x + blockOffset];
    }
    int address = (int)blockIdx.x * 256 + baseIndex + tid;
    __syncthreads();
    g_data[address] += uni;
    if (tid + 128 < n) {
        g_data[address + 128] += uni;
    }
}
