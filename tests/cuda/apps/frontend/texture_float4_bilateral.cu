// Separable colour smoothing in the style of the SDK's image samples: an RGBA image lives in a
// 2-D texture of float4 (legacy texture reference), each block stages its row segment plus a
// one-pixel apron in shared memory, then every thread blends its pixel with its two neighbours.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_W 128

texture<float4, 2, cudaReadModeElementType> rgbaTex;

__device__ float4 blend3(float4 l, float4 c, float4 r, float w)
{
    float4 o;
    o.x = w * l.x + (1.0f - 2.0f * w) * c.x + w * r.x;
    o.y = w * l.y + (1.0f - 2.0f * w) * c.y + w * r.y;
    o.z = w * l.z + (1.0f - 2.0f * w) * c.z + w * r.z;
    o.w = c.w;
    return o;
}

__global__ void smoothRowsRGBA(float4 *d_out, int width, int height, float weight)
{
    __shared__ float4 row[TILE_W + 2];
    int tx = threadIdx.x;
    int x = blockIdx.x * TILE_W + tx;
    int y = blockIdx.y;

    // Apron: the first thread fetches the left neighbour, the last one the right neighbour.
    row[tx + 1] = tex2D(rgbaTex, x + 0.5f, y + 0.5f);
    if (tx == 0)
        row[0] = tex2D(rgbaTex, x - 0.5f, y + 0.5f);
    if (tx == TILE_W - 1)
        row[TILE_W + 1] = tex2D(rgbaTex, x + 1.5f, y + 0.5f);
    __syncthreads();

    float4 c = blend3(row[tx], row[tx + 1], row[tx + 2], weight);
    if (x < width && y < height)
        d_out[y * width + x] = c;
}

int main()
{
    const int width = 1024, height = 768;
    size_t bytes = (size_t)width * height * sizeof(float4);
    float4 *h_img = (float4 *)malloc(bytes);
    for (int i = 0; i < width * height; ++i)
        h_img[i] = make_float4(i % 255 / 255.0f, 0.5f, 0.25f, 1.0f);

    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
    cudaArray *d_array;
    cudaMallocArray(&d_array, &desc, width, height);
    cudaMemcpy2DToArray(d_array, 0, 0, h_img, width * sizeof(float4), width * sizeof(float4), height,
                        cudaMemcpyHostToDevice);
    cudaBindTextureToArray(rgbaTex, d_array);

    float4 *d_out;
    cudaMalloc(&d_out, bytes);
    dim3 threads(TILE_W);
    dim3 grid(width / TILE_W, height);
    smoothRowsRGBA<<<grid, threads>>>(d_out, width, height, 0.25f);
    cudaMemcpy(h_img, d_out, bytes, cudaMemcpyDeviceToHost);
    printf("pixel 0: %f %f %f %f\n", h_img[0].x, h_img[0].y, h_img[0].z, h_img[0].w);

    cudaUnbindTexture(rgbaTex);
    cudaFreeArray(d_array);
    cudaFree(d_out);
    free(h_img);
    return 0;
}
