// A 1-D stencil with a halo cell on each side, its tile in dynamic shared memory sized by the
// launch (blockDim.x + 2 floats), as SDK samples size `extern __shared__` buffers.
#include <cuda_runtime.h>

__global__ void blur3(const float *in, float *out, int n)
{
    extern __shared__ float tile[];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    tile[t + 1] = g < n ? in[g] : 0.0f;
    if (t == 0)
        tile[0] = g > 0 ? in[g - 1] : 0.0f;
    if (t == blockDim.x - 1)
        tile[blockDim.x + 1] = g + 1 < n ? in[g + 1] : 0.0f;
    __syncthreads();
    if (g < n)
        out[g] = (tile[t] + tile[t + 1] + tile[t + 2]) / 3.0f;
}

int main()
{
    const int n = 1 << 20, threads = 256;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    blur3<<<n / threads, threads, (threads + 2) * sizeof(float)>>>(in, out, n);
    cudaDeviceSynchronize();
    return 0;
}
