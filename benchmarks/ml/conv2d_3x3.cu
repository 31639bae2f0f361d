// 3x3 convolution of a multi-channel image (depthwise: one filter per channel), zero padding.
// A 16x16 output tile needs an 18x18 input tile; each thread loads its own pixel and the threads
// of the first two rows/columns load the halo. The 9 weights are staged too.
#include <cuda_runtime.h>
#include <cstdio>

#define CHANNELS 32
#define H 512
#define W 512
#define TILE 16
#define HALO 1
#define STILE (TILE + 2 * HALO)

__device__ __forceinline__ float pixelOrZero(const float *img, int y, int x)
{
    return (y >= 0 && y < H && x >= 0 && x < W) ? img[y * W + x] : 0.0f;
}

__global__ void conv2d3x3(const float *__restrict__ in, const float *__restrict__ weights, float *__restrict__ out)
{
    __shared__ float tile[STILE][STILE];
    __shared__ float sW[9];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int ch = blockIdx.z;
    const int ox = blockIdx.x * TILE + tx;
    const int oy = blockIdx.y * TILE + ty;
    const float *img = in + (size_t)ch * H * W;
    const int gx = ox - HALO;
    const int gy = oy - HALO;

    if (ty == 0 && tx < 9)
        sW[tx] = weights[ch * 9 + tx];
    tile[ty][tx] = pixelOrZero(img, gy, gx);
    if (tx < 2 * HALO)
        tile[ty][tx + TILE] = pixelOrZero(img, gy, gx + TILE);
    if (ty < 2 * HALO)
        tile[ty + TILE][tx] = pixelOrZero(img, gy + TILE, gx);
    if (tx < 2 * HALO && ty < 2 * HALO)
        tile[ty + TILE][tx + TILE] = pixelOrZero(img, gy + TILE, gx + TILE);
    __syncthreads();

    float acc = 0.0f;
#pragma unroll
    for (int dy = 0; dy < 3; ++dy)
#pragma unroll
        for (int dx = 0; dx < 3; ++dx)
            acc += sW[dy * 3 + dx] * tile[ty + dy][tx + dx];
    out[(size_t)ch * H * W + oy * W + ox] = acc;
}

int main()
{
    float *d_in, *d_out, *d_w;
    size_t bytes = (size_t)CHANNELS * H * W * sizeof(float);
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    cudaMalloc(&d_w, CHANNELS * 9 * sizeof(float));
    cudaMemset(d_in, 0, bytes);
    cudaMemset(d_w, 0, CHANNELS * 9 * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid(W / TILE, H / TILE, CHANNELS);
    conv2d3x3<<<grid, block>>>(d_in, d_w, d_out);
    cudaDeviceSynchronize();
    printf("conv2d_3x3 done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_w);
    return 0;
}
