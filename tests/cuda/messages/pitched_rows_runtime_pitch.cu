// Scales the rows of a pitched image; the pitch comes from the command line. Rows of different
// blocks are disjoint only when the pitch is at least the row width (blockDim.x): with a
// shorter pitch, neighbouring blocks scale the same pixels.
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scaleRows(float *image, int pitch, float gain)
{
    image[blockIdx.x * pitch + threadIdx.x] *= gain;
}

int main(int argc, char **argv)
{
    int rows = 512;
    int pitch = argc > 1 ? atoi(argv[1]) : 256;
    float *image;
    cudaMalloc(&image, rows * pitch * sizeof(float));
    scaleRows<<<rows, 128>>>(image, pitch, 0.5f);
    cudaDeviceSynchronize();
    cudaFree(image);
    return 0;
}
