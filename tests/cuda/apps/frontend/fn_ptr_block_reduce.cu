// A block-sum kernel whose reduction strategy is a device function pointer the host picks at
// run time (the SDK FunctionPointers pattern): the host copies the address out of a __device__
// symbol and passes it to the kernel, which calls it after staging its inputs in shared memory.
#include <cstdio>
#include <cuda_runtime.h>

#define THREADS 256

typedef void (*block_reduce_t)(float *s);

// Halving tree: a barrier after every level.
__device__ void treeReduce(float *s)
{
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
}

// Thread 0 adds everything up after one barrier.
__device__ void serialReduce(float *s)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        float sum = 0.0f;
        for (int i = 0; i < THREADS; ++i)
            sum += s[i];
        s[0] = sum;
    }
    __syncthreads();
}

__device__ block_reduce_t d_tree = treeReduce;
__device__ block_reduce_t d_serial = serialReduce;

__global__ void blockSums(const float *in, float *out, int n, block_reduce_t reduce)
{
    __shared__ float s[THREADS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    reduce(s);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

int main(int argc, char **argv)
{
    const int n = 1 << 20;
    const int blocks = (n + THREADS - 1) / THREADS;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, blocks * sizeof(float));
    block_reduce_t h_reduce;
    if (argc > 1)
        cudaMemcpyFromSymbol(&h_reduce, d_serial, sizeof(block_reduce_t));
    else
        cudaMemcpyFromSymbol(&h_reduce, d_tree, sizeof(block_reduce_t));
    blockSums<<<blocks, THREADS>>>(in, out, n, h_reduce);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
