// A Parboil-style 2-D heat step on a fixed-width grid passed as a two-dimensional array
// parameter (`float in[][W]`): each thread updates one interior cell of `out` from the five
// neighbours of `in`. The bug: the step updates the grid in place (one array for both roles),
// so a cell is written while its neighbours, in the same or an adjacent block, read it.
#include <cuda_runtime.h>
#include <cstdio>

#define W 512
#define H 512
#define BX 32
#define BY 8

__global__ void heatStep(float in[][W], float alpha)
{
    int x = blockIdx.x * BX + threadIdx.x;
    int y = blockIdx.y * BY + threadIdx.y;
    if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1)
        return;
    float c = in[y][x];
    float lap = in[y - 1][x] + in[y + 1][x] + in[y][x - 1] + in[y][x + 1] - 4.0f * c;
    in[y][x] = c + alpha * lap;
}

int main()
{
    float (*a)[W], (*b)[W];
    cudaMalloc((void **)&a, H * W * sizeof(float));
    cudaMalloc((void **)&b, H * W * sizeof(float));
    cudaMemset(a, 0, H * W * sizeof(float));
    dim3 block(BX, BY);
    dim3 grid(W / BX, H / BY);
    for (int step = 0; step < 100; ++step) {
        heatStep<<<grid, block>>>(a, 0.2f);
        float (*t)[W] = a;
        a = b;
        b = t;
    }
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
