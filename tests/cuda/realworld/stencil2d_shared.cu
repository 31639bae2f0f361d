//--blockDim=[32,8] --gridDim=[4,16]
// 5-point Laplacian on a 128 x 128 grid: each block computes 8 rows of 32 columns from a
// 10 x 34 shared tile (halos clamped at the borders).
#define NX 128
#define NY 128

__global__ void laplacian(const float *u, float *lap)
{
    __shared__ float s[10][34];
    int bx = blockIdx.x * 32, by = blockIdx.y * 8;
    int tx = threadIdx.x;
    for (int r = threadIdx.y; r < 10; r += 8) {
        int gy = min(max(by + r - 1, 0), NY - 1);
        s[r][tx + 1] = u[gy * NX + bx + tx];
        if (tx == 0)
            s[r][0] = u[gy * NX + max(bx - 1, 0)];
        if (tx == 31)
            s[r][33] = u[gy * NX + min(bx + 32, NX - 1)];
    }
    __syncthreads();
    int ly = threadIdx.y + 1, lx = tx + 1;
    float c = s[ly][lx];
    lap[(by + threadIdx.y) * NX + bx + tx] =
        s[ly - 1][lx] + s[ly + 1][lx] + s[ly][lx - 1] + s[ly][lx + 1] - 4.0f * c;
}
