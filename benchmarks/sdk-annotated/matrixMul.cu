//--blockDim=[16,16] --gridDim=[8,8]
// Tiled matrix multiply C = A * B: each block computes a BLOCK_SIZE x BLOCK_SIZE tile of C,
// stepping over the inner dimension one pair of shared tiles of A and B at a time.
#define WB 128 // width of B and C (columns); the grid covers C exactly
#define IMAD(a, b, c) ((a) * (b) + (c))
#define AS(i, j) As[i][j]
#define BS(i, j) Bs[i][j]

template <int BLOCK_SIZE>
__global__ void matrixMul(float *C, const float *A, const float *B, int wA)
{
    __requires(wA % BLOCK_SIZE == 0);
    __requires(wA > 0);
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = IMAD(blockIdx.y, BLOCK_SIZE, ty);
    const int col = IMAD(blockIdx.x, BLOCK_SIZE, tx);
    const int numTiles = wA / BLOCK_SIZE;

    float Csub = 0.0f;
    for (int t = 0; t < numTiles; ++t) {
        AS(ty, tx) = A[IMAD(row, wA, IMAD(t, BLOCK_SIZE, tx))];
        BS(ty, tx) = B[IMAD(IMAD(t, BLOCK_SIZE, ty), WB, col)];
        __syncthreads();

#pragma unroll
        for (int k = 0; k < BLOCK_SIZE; ++k)
            Csub += AS(ty, k) * BS(k, tx);
        // The next tile's loads overwrite As/Bs that slower threads may still be reading.
        __syncthreads();
    }

    C[IMAD(row, WB, col)] = Csub;
}

template __global__ void matrixMul<16>(float *C, const float *A, const float *B, int wA);
