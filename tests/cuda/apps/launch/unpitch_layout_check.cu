// Copy of a pitched 2-D image into a dense one (SHOC/Parboil style), with the image layout read
// from the command line. A layout helper rejects rows wider than their pitch before any launch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void unpitch(const float *src, float *dst, int width, int height, int pitch)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        dst[y * pitch + x] = src[y * pitch + x] * 0.5f;
}

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s WIDTH HEIGHT PITCH\n", prog);
    exit(EXIT_FAILURE);
}

static void check_layout(const char *prog, int width, int height, int pitch)
{
    if (width <= 0 || height <= 0)
        usage(prog);
    if (pitch < width) {
        fprintf(stderr, "pitch %d is shorter than a row of %d\n", pitch, width);
        usage(prog);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4)
        usage(argv[0]);
    int width = atoi(argv[1]);
    int height = atoi(argv[2]);
    int pitch = atoi(argv[3]);
    check_layout(argv[0], width, height, pitch);
    float *src, *dst;
    cudaMalloc(&src, (size_t)pitch * height * sizeof(float));
    cudaMalloc(&dst, (size_t)pitch * height * sizeof(float));
    dim3 block(32, 8);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    unpitch<<<grid, block>>>(src, dst, width, height, pitch);
    cudaDeviceSynchronize();
    printf("copied\n");
    return 0;
}
