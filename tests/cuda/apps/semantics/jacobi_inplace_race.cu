// An in-place Gauss-Seidel-like sweep written as if it were Jacobi: neighbours are read from the
// same buffer that is written, so a thread can read a value its neighbour is overwriting.
#include <cuda_runtime.h>

__global__ void smooth_inplace(float *u, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1)
        u[y * nx + x] = 0.5f * (u[y * nx + x - 1] + u[y * nx + x + 1]);
}

int main()
{
    int nx = 512, ny = 512;
    float *u;
    cudaMalloc(&u, nx * ny * sizeof(float));
    dim3 block(16, 16);
    dim3 grid(nx / 16, ny / 16);
    smooth_inplace<<<grid, block>>>(u, nx, ny);
    cudaDeviceSynchronize();
    return 0;
}
