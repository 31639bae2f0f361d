// Shared-memory matrix multiply C = A * B in the style of the CUDA Programming Guide: matrices
// are row-major structs with a stride, sub-matrices are views sharing the parent's elements,
// and element access goes through small device helpers. Bug: the second barrier of the tile
// loop is missing, so the next tile can be loaded while others still read the current one.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16

struct Matrix {
    int width;
    int height;
    int stride;
    float *elements;
};

__device__ float GetElement(const Matrix M, int row, int col) { return M.elements[row * M.stride + col]; }

__device__ void SetElement(Matrix M, int row, int col, float value) { M.elements[row * M.stride + col] = value; }

// The BLOCK_SIZE x BLOCK_SIZE block (bRow, bCol) of M, as a view into M's storage.
__device__ Matrix GetSubMatrix(Matrix M, int bRow, int bCol)
{
    Matrix sub;
    sub.width = BLOCK_SIZE;
    sub.height = BLOCK_SIZE;
    sub.stride = M.stride;
    sub.elements = &M.elements[M.stride * BLOCK_SIZE * bRow + BLOCK_SIZE * bCol];
    return sub;
}

__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C)
{
    int bRow = blockIdx.y, bCol = blockIdx.x;
    int row = threadIdx.y, col = threadIdx.x;
    Matrix Csub = GetSubMatrix(C, bRow, bCol);
    float acc = 0.0f;
    for (int m = 0; m < A.width / BLOCK_SIZE; ++m) {
        Matrix Asub = GetSubMatrix(A, bRow, m);
        Matrix Bsub = GetSubMatrix(B, m, bCol);
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[row][col] = GetElement(Asub, row, col);
        Bs[row][col] = GetElement(Bsub, row, col);
        __syncthreads();
        for (int e = 0; e < BLOCK_SIZE; ++e)
            acc += As[row][e] * Bs[e][col];
    }
    SetElement(Csub, row, col, acc);
}

int main()
{
    const int N = 1024;
    Matrix A = {N, N, N, 0}, B = {N, N, N, 0}, C = {N, N, N, 0};
    size_t bytes = N * N * sizeof(float);
    cudaMalloc(&A.elements, bytes);
    cudaMalloc(&B.elements, bytes);
    cudaMalloc(&C.elements, bytes);
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(N / BLOCK_SIZE, N / BLOCK_SIZE);
    MatMulKernel<<<dimGrid, dimBlock>>>(A, B, C);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(A.elements); cudaFree(B.elements); cudaFree(C.elements);
    return 0;
}
