// CSR sparse matrix-vector product, scalar kernel with a grid-stride loop over rows (the
// cuSPARSE-less "one thread per row" baseline of SpMV papers).
#include <cuda_runtime.h>

__global__ void spmv_csr_scalar(int num_rows, const int *row_ptr, const int *cols,
                                const float *vals, const float *x, float *y)
{
    for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < num_rows;
         row += blockDim.x * gridDim.x) {
        float dot = 0.0f;
        for (int j = row_ptr[row]; j < row_ptr[row + 1]; ++j)
            dot += vals[j] * x[cols[j]];
        y[row] = dot;
    }
}

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : 100000;
    int nnz = rows * 8;
    int *rp, *c;
    float *v, *x, *y;
    cudaMalloc(&rp, (rows + 1) * sizeof(int));
    cudaMalloc(&c, nnz * sizeof(int));
    cudaMalloc(&v, nnz * sizeof(float));
    cudaMalloc(&x, rows * sizeof(float));
    cudaMalloc(&y, rows * sizeof(float));
    int threads = 256;
    int blocks = (rows + threads - 1) / threads;
    if (blocks > 4096)
        blocks = 4096;
    spmv_csr_scalar<<<blocks, threads>>>(rows, rp, c, v, x, y);
    cudaDeviceSynchronize();
    return 0;
}
