// An SDK-style image box filter that samples its input through a texture object
// (tex2D<float>, clamped addressing) into a shared tile with a one-pixel apron, then averages
// the 3x3 neighbourhood of each pixel from the tile. The bug: the barrier between the tile
// loads and the averaging is missing, so a thread reads neighbours' cells before they are stored.
#include <cuda_runtime.h>
#include <cstdio>

#define BW 16
#define BH 16

__global__ void boxFilter(cudaTextureObject_t src, float *dst, int width, int height)
{
    __shared__ float tile[BH + 2][BW + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BW + tx;
    int y = blockIdx.y * BH + ty;
    // Each thread loads its pixel and, at the tile's edges, the apron pixels beside it.
    tile[ty + 1][tx + 1] = tex2D<float>(src, x + 0.5f, y + 0.5f);
    if (tx == 0)
        tile[ty + 1][0] = tex2D<float>(src, x - 0.5f, y + 0.5f);
    if (tx == BW - 1)
        tile[ty + 1][BW + 1] = tex2D<float>(src, x + 1.5f, y + 0.5f);
    if (ty == 0)
        tile[0][tx + 1] = tex2D<float>(src, x + 0.5f, y - 0.5f);
    if (ty == BH - 1)
        tile[BH + 1][tx + 1] = tex2D<float>(src, x + 0.5f, y + 1.5f);
    if (tx == 0 && ty == 0) {
        tile[0][0] = tex2D<float>(src, x - 0.5f, y - 0.5f);
        tile[0][BW + 1] = tex2D<float>(src, x + BW - 0.5f, y - 0.5f);
        tile[BH + 1][0] = tex2D<float>(src, x - 0.5f, y + BH - 0.5f);
        tile[BH + 1][BW + 1] = tex2D<float>(src, x + BW - 0.5f, y + BH - 0.5f);
    }
    float s = 0.0f;
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            s += tile[ty + dy][tx + dx];
    if (x < width && y < height)
        dst[y * width + x] = s / 9.0f;
}

int main()
{
    const int width = 1024, height = 768;
    cudaArray_t arr;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaMallocArray(&arr, &desc, width, height);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc tex = {};
    tex.addressMode[0] = cudaAddressModeClamp;
    tex.addressMode[1] = cudaAddressModeClamp;
    tex.filterMode = cudaFilterModePoint;
    cudaTextureObject_t obj;
    cudaCreateTextureObject(&obj, &res, &tex, nullptr);
    float *dst;
    cudaMalloc(&dst, width * height * sizeof(float));
    dim3 block(BW, BH);
    dim3 grid(width / BW, height / BH);
    boxFilter<<<grid, block>>>(obj, dst, width, height);
    cudaDeviceSynchronize();
    cudaDestroyTextureObject(obj);
    printf("filtered\n");
    return 0;
}
