// Row softmax, one warp per row, each lane keeping its columns in registers (PER_LANE of them).
// The instance is chosen by the number of 32-column chunks a row has: `chunks <= 4` takes the
// 4-register instance, so a lane's `vals[c / 32]` stays inside its registers.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

constexpr int kWarp = 32;
constexpr int kRowsPerBlock = 4;

template <int PER_LANE>
__global__ void rowSoftmaxWarp(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    int row = blockIdx.x * kRowsPerBlock + threadIdx.y;
    if (row >= rows)
        return;
    float vals[PER_LANE];
    for (int i = 0; i < PER_LANE; ++i)
        vals[i] = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += kWarp)
        vals[c / kWarp] = in[row * cols + c];
    float m = -INFINITY;
    for (int i = 0; i < PER_LANE; ++i)
        m = fmaxf(m, vals[i]);
    for (int off = 16; off > 0; off >>= 1)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
    float s = 0.f;
    for (int i = 0; i < PER_LANE; ++i) {
        vals[i] = __expf(vals[i] - m);
        s += vals[i];
    }
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, off);
    for (int c = threadIdx.x; c < cols; c += kWarp)
        out[row * cols + c] = vals[c / kWarp] / s;
}

void rowSoftmax(const float *in, float *out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(kWarp, kRowsPerBlock);
    dim3 grid((rows + kRowsPerBlock - 1) / kRowsPerBlock);
    const int chunks = (cols + kWarp - 1) / kWarp;
    if (chunks <= 4)
        rowSoftmaxWarp<4><<<grid, block, 0, stream>>>(in, out, rows, cols);
    else if (chunks <= 8)
        rowSoftmaxWarp<8><<<grid, block, 0, stream>>>(in, out, rows, cols);
    else
        fprintf(stderr, "rows wider than 256 columns are not supported\n");
}

int main(int argc, char **argv)
{
    int rows = argc > 2 ? atoi(argv[1]) : 4096;
    int cols = argc > 2 ? atoi(argv[2]) : 200;
    float *in, *out;
    cudaMalloc(&in, (size_t)rows * cols * sizeof(float));
    cudaMalloc(&out, (size_t)rows * cols * sizeof(float));
    rowSoftmax(in, out, rows, cols, 0);
    cudaDeviceSynchronize();
    return 0;
}
