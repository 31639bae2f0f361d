// A utility file with two kernels: a plain scale kernel, and a warp-level one that reads the
// lane id with inline PTX and keeps its parameters in a struct with an array of pointers. The front
// end refuses the second (every construct it cannot model is listed) and still checks the first.
#include <cuda_runtime.h>

struct Buffers {
    const float *in;
    float *out;
    int n;
    const float *bias[2];
};

__global__ void scale(const float *in, float *out, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * s;
}

__global__ void laneCopy(Buffers b)
{
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.n)
        b.out[i] = b.in[i] + b.bias[i & 1][i] + (float)lane;
}

int main()
{
    const int n = 1 << 16;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    scale<<<n / 256, 256>>>(in, out, 2.0f, n);
    Buffers b = {in, out, n, {in, in}};
    laneCopy<<<n / 256, 256>>>(b);
    cudaDeviceSynchronize();
    return 0;
}
