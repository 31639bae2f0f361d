// Packed RGBA pixels staged in shared memory as 32-bit words, then unpacked channel by channel
// through a byte view of the same tile (and a float tile read back as halves for a second
// output), the way image kernels reinterpret a tile.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define PIXELS 64

__global__ void unpack_channels(const unsigned int *rgba, unsigned char *channels, const float *w, half *wh)
{
    __shared__ unsigned int tile[PIXELS];
    __shared__ float weights[2 * PIXELS];
    int t = threadIdx.x;                       // 4 * PIXELS threads, one per byte
    if (t < PIXELS)
        tile[t] = rgba[blockIdx.x * PIXELS + t];
    if (t < 2 * PIXELS)
        weights[t] = w[t];
    __syncthreads();
    const unsigned char *bytes = reinterpret_cast<const unsigned char *>(tile);
    // Byte t of the tile: channel t % 4 of pixel t / 4.
    channels[blockIdx.x * 4 * PIXELS + (t % 4) * PIXELS + t / 4] = bytes[t];
    const half *halves = reinterpret_cast<const half *>(weights);
    wh[blockIdx.x * 4 * PIXELS + t] = halves[t];
}

int main()
{
    unsigned int *rgba; unsigned char *ch; float *w; half *wh;
    cudaMalloc(&rgba, 32 * PIXELS * sizeof(unsigned int));
    cudaMalloc(&ch, 32 * 4 * PIXELS);
    cudaMalloc(&w, 2 * PIXELS * sizeof(float));
    cudaMalloc(&wh, 32 * 4 * PIXELS * sizeof(half));
    unpack_channels<<<32, 4 * PIXELS>>>(rgba, ch, w, wh);
    cudaDeviceSynchronize();
    return 0;
}
