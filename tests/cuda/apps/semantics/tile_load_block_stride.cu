// Loading a tile larger than the block into shared memory with a block-stride loop, then a 1-D
// convolution over the tile (a common pattern when the halo makes the tile wider than the block).
#include <cuda_runtime.h>

#define RADIUS 8
#define OUT_TILE 256
#define IN_TILE (OUT_TILE + 2 * RADIUS)

__global__ void conv1d(const float *in, const float *mask, float *out, int n)
{
    __shared__ float tile[IN_TILE];
    int base = blockIdx.x * OUT_TILE - RADIUS;
    for (int j = threadIdx.x; j < IN_TILE; j += blockDim.x) {
        int g = base + j;
        tile[j] = (g >= 0 && g < n) ? in[g] : 0.0f;
    }
    __syncthreads();
    for (int o = threadIdx.x; o < OUT_TILE; o += blockDim.x) {
        float acc = 0.0f;
        for (int k = 0; k <= 2 * RADIUS; ++k)
            acc += tile[o + k] * mask[k];
        int g = blockIdx.x * OUT_TILE + o;
        if (g < n)
            out[g] = acc;
    }
}

int main()
{
    int n = 1 << 22;
    float *in, *mask, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&mask, (2 * RADIUS + 1) * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    int threads = 128;
    conv1d<<<n / OUT_TILE, threads>>>(in, mask, out, n);
    cudaDeviceSynchronize();
    return 0;
}
