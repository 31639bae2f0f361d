//--blockDim=[16,16] --gridDim=[8,8]
// SDK-style tiled matrix multiply with accessor macros; C = A * B, wA = 256, wB = 128.
#define BLOCK_SIZE 16
#define WA 256
#define WB 128
#define AS(i, j) As[i][j]
#define BS(i, j) Bs[i][j]

__global__ void matrixMul(float *C, const float *A, const float *B)
{
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = WA * BLOCK_SIZE * by;
    int aEnd = aBegin + WA - 1;
    int aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx;
    int bStep = BLOCK_SIZE * WB;
    float Csub = 0;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        AS(ty, tx) = A[a + WA * ty + tx];
        BS(ty, tx) = B[b + WB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k)
            Csub += AS(ty, k) * BS(k, tx);
        __syncthreads();
    }
    int c = WB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + WB * ty + tx] = Csub;
}
