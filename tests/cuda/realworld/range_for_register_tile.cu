//--blockDim=[16,16] --gridDim=[8,8]
// SGEMM with a register tile: every thread keeps 4 accumulators of one column (C is 512 x 128,
// A is 512 x K, B is K x 128), accumulates them with a range-for and a running row counter,
// scales them in place with `for (auto &x : regs) x *= alpha;`, then adds beta * C.
#define TILE 16
#define ROWS 4
#define K 128
#define N 128

__global__ void sgemmTile(const float *A, const float *B, float *C, float alpha, float beta)
{
    __shared__ float As[ROWS * TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    float regs[ROWS] = {};
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * ROWS * TILE + ty;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        for (int r = 0; r < ROWS; ++r)
            As[ty + TILE * r][tx] = A[(row + TILE * r) * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            float b = Bs[k][tx];
            int r = 0;
            for (auto &acc : regs)
                acc += As[ty + TILE * r++][k] * b;
        }
        __syncthreads();
    }
    for (auto &x : regs)
        x *= alpha;
    for (int r = 0; r < ROWS; ++r) {
        float *c = &C[(row + TILE * r) * N + col];
        *c = regs[r] + beta * *c;
    }
}
