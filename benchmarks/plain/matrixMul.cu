//--blockDim=[16,16] --gridDim=[8,8]
// Tiled matrix product C = A * B (row-major; A is 128 x wA, B is wA x WB, wA a multiple of 16).
// Each block computes a 16x16 tile of C, looping over 16-wide tiles of A and B staged in shared
// memory: one barrier after loading a tile pair, one before the next iteration overwrites it.
// The size of C is fixed by the launch geometry: 8x8 blocks of 16x16 elements, so C and B have
// WB = 128 columns and C and A have 128 rows; the inner dimension wA stays a parameter.
#define WB 128
__global__ void matrixMul(float *C, const float *A, const float *B, int wA)
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
        Bs[ty][tx] = B[(t + ty) * WB + col];
        __syncthreads();
        for (int k = 0; k < 16; k++) {
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    C[row * WB + col] = acc;
}
