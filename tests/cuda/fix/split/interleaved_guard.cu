// Interleaved-addressing reduction with the guard written `tid % stride == 0` instead of
// `tid % (2 * stride) == 0`: threads t and t + stride both pass it, and thread t reads
// s[t + stride] in the statement where thread t + stride writes it.
#include <cuda_runtime.h>

#define N 512

__global__ void reduce_interleaved(const float *in, float *out)
{
    __shared__ float s[N];
    unsigned int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * N + tid];
    __syncthreads();
    for (unsigned int stride = 1; stride < N; stride *= 2) {
        if (tid % stride == 0 && tid + stride < N) {
            s[tid] += s[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 * N * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    reduce_interleaved<<<64, N>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
