//--blockDim=128 --gridDim=16
// Data-dependent number of smoothing rounds per block: thread 0 reads the round count of its block
// from global memory into a shared variable; after the barrier every thread reads the same value,
// so the loop bound is uniform and the barriers inside the loop are not divergent. Each round
// replaces every element of the block's 128-element ring by the mean of itself and its right
// neighbour (read, barrier, write, barrier).
__global__ void uniform_bound_loop(float *data, const int *rounds)
{
    __shared__ int n;
    __shared__ float buf[128];
    int tid = threadIdx.x;
    int base = (int)blockIdx.x * 128;
    if (tid == 0) {
        n = rounds[blockIdx.x];
    }
    buf[tid] = data[base + tid];
    __syncthreads();
    for (int i = 0; i < n; i++) {
        float v = 0.5f * (buf[tid] + buf[(tid + 1) % 128]);
        __syncthreads();
        buf[tid] = v;
        __syncthreads();
    }
    data[base + tid] = buf[tid];
}
