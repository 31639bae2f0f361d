// The three-point stencil with the usual slip: the guard protects the left neighbour only, so
// the thread of the last point reads one element past the end of the signal.
#include <cuda_runtime.h>
#include <vector>

constexpr int kLength = 1 << 16;
constexpr int kBlock = 128;

__global__ void smooth3(const float *in, float *out, int length)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i < length)
        out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

int main()
{
    std::vector<float> host(kLength, 1.0f);
    float *d_in, *d_out;
    cudaMalloc(&d_in, kLength * sizeof(float));
    cudaMalloc(&d_out, kLength * sizeof(float));
    cudaMemcpy(d_in, host.data(), kLength * sizeof(float), cudaMemcpyHostToDevice);
    smooth3<<<(kLength + kBlock - 1) / kBlock, kBlock>>>(d_in, d_out, kLength);
    cudaMemcpy(host.data(), d_out, kLength * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
