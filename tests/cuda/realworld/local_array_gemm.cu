//--blockDim=[16,16] --gridDim=[4,4]
// Register-blocked GEMM: each thread computes 4 outputs of a column strip (C is 256 x 64,
// A is 256 x K, B is K x 64, K = 64).
#define K 64
#define M 256
#define N 64

__global__ void gemm4(const float *A, const float *B, float *C)
{
    __shared__ float As[64][16];
    __shared__ float Bs[16][16];
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * 16 + tx;
    int row0 = blockIdx.y * 64 + ty;
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int r = 0; r < 4; ++r)
            As[ty + 16 * r][tx] = A[(row0 + 16 * r) * K + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * N + col];
        __syncthreads();
        for (int k = 0; k < 16; ++k) {
            float b = Bs[k][tx];
            for (int r = 0; r < 4; ++r)
                acc[r] += As[ty + 16 * r][k] * b;
        }
        __syncthreads();
    }
    for (int r = 0; r < 4; ++r)
        C[(row0 + 16 * r) * N + col] = acc[r];
}
