// Sparse matrix-vector product y = A x over a CSR matrix whose arrays travel in one struct
// passed by value (graph/sparse style: `CsrView` bundles row pointers, column indices, values and
// the row count). One thread per row (scalar CSR kernel); each thread writes its own y[row].
#include <cuda_runtime.h>
#include <cstdio>

struct CsrView {
    const int *rowPtr;
    const int *colIdx;
    const float *vals;
    int rows;
};

__global__ void spmvCsrScalar(CsrView A, const float *x, float *y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < A.rows) {
        float dot = 0.0f;
        for (int k = A.rowPtr[row]; k < A.rowPtr[row + 1]; ++k)
            dot += A.vals[k] * x[A.colIdx[k]];
        y[row] = dot;
    }
}

int main()
{
    const int rows = 1 << 16, nnz = 16 * rows;
    CsrView A;
    int *rowPtr, *colIdx;
    float *vals, *x, *y;
    cudaMalloc(&rowPtr, (rows + 1) * sizeof(int));
    cudaMalloc(&colIdx, nnz * sizeof(int));
    cudaMalloc(&vals, nnz * sizeof(float));
    cudaMalloc(&x, rows * sizeof(float));
    cudaMalloc(&y, rows * sizeof(float));
    A.rowPtr = rowPtr;
    A.colIdx = colIdx;
    A.vals = vals;
    A.rows = rows;
    dim3 block(128);
    dim3 grid((rows + 127) / 128);
    spmvCsrScalar<<<grid, block>>>(A, x, y);
    cudaDeviceSynchronize();
    printf("spmv done\n");
    return 0;
}
