// Block reduction templated on the shared buffer size (library style), one instance per block
// size. The host launches the 128-element instance with 256 threads.
#include <cstdio>
#include <cuda_runtime.h>

template <int SIZE>
__global__ void reduce_max(const float *in, float *out)
{
    __shared__ float buf[SIZE];
    int t = threadIdx.x;
    buf[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] = fmaxf(buf[t], buf[t + s]);
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}

int main()
{
    const int n = 1 << 18;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, (n / 64) * sizeof(float));
    reduce_max<64><<<n / 64, 64>>>(in, out);
    reduce_max<128><<<n / 256, 256>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}
