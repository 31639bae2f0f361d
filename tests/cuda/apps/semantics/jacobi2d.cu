// One Jacobi sweep of a 2-D Laplace problem between two buffers (Parboil/SHOC stencil style).
#include <cuda_runtime.h>

__global__ void jacobi_step(const float *in, float *out, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
        out[y * nx + x] = 0.25f * (in[y * nx + x - 1] + in[y * nx + x + 1] +
                                   in[(y - 1) * nx + x] + in[(y + 1) * nx + x]);
    }
}

int main(int argc, char **argv)
{
    int nx = argc > 1 ? atoi(argv[1]) : 1000;
    int ny = argc > 2 ? atoi(argv[2]) : 1000;
    float *a, *b;
    cudaMalloc(&a, nx * ny * sizeof(float));
    cudaMalloc(&b, nx * ny * sizeof(float));
    dim3 block(16, 16);
    dim3 grid((nx + 15) / 16, (ny + 15) / 16);
    for (int it = 0; it < 100; ++it) {
        jacobi_step<<<grid, block>>>(a, b, nx, ny);
        float *t = a; a = b; b = t;
    }
    cudaDeviceSynchronize();
    return 0;
}
