// Layer code of a small ML library, organised in nested namespaces: the activation is a device
// function in `nn::act`, called qualified from a kernel in `nn::layers`; `std::min` clamps the
// tile's bound. Bug: the bias tile is read shifted by one column (b[x + 1]) with no barrier
// after the load.
#include <algorithm>
#include <cuda_runtime.h>

namespace nn {
namespace act {
__device__ __forceinline__ float relu(float x) { return x > 0.0f ? x : 0.0f; }
} // namespace act

namespace layers {
constexpr int TILE = 128;

__global__ void biasRelu(const float *in, const float *bias, float *out, int rows, int cols)
{
    __shared__ float b[TILE];
    int col0 = blockIdx.x * TILE;
    int width = std::min(TILE, cols - col0);
    if (threadIdx.x < width)
        b[threadIdx.x] = bias[col0 + threadIdx.x];
    for (int r = blockIdx.y; r < rows; r += gridDim.y) {
        if (threadIdx.x < width) {
            int idx = r * cols + col0 + threadIdx.x;
            out[idx] = nn::act::relu(in[idx] + b[(threadIdx.x + 1) % width]);
        }
    }
}
} // namespace layers
} // namespace nn

int main()
{
    const int rows = 512, cols = 1024;
    float *in, *bias, *out;
    cudaMalloc(&in, rows * cols * sizeof(float));
    cudaMalloc(&bias, cols * sizeof(float));
    cudaMalloc(&out, rows * cols * sizeof(float));
    using namespace nn::layers;
    dim3 grid(cols / 128, 64);
    biasRelu<<<grid, 128>>>(in, bias, out, rows, cols);
    cudaDeviceSynchronize();
    return 0;
}
