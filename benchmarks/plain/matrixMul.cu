//--blockDim=[16,16] --gridDim=[8,8]
// Tiled matrix product C = A * B (row-major; A is hA x wA, B is wA x wB, wA a multiple of 16).
// Each block computes a 16x16 tile of C, looping over 16-wide tiles of A and B staged in shared
// memory: one barrier after loading a tile pair, one before the next iteration overwrites it.
__global__ void matrixMul(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = (int)blockIdx.y * 16 + ty;
    int col = (int)blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (int t = 0; t < wA; t += 16) {
        As[ty][tx] = A[row * wA + t + tx];
        Bs[ty][tx] = B[(t + ty) * wB + col];
        __syncthreads();
        for (int k = 0; k < 16; k++) {
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    C[row * wB + col] = acc;
}
