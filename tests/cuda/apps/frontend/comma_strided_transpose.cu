// A Rodinia-style strided copy that walks two indices at once with the comma operator in the
// loop header (`i += stride, k += stride * rows`) and swaps two partial sums with a comma
// expression. Each thread owns the column j of a row-major matrix and writes that column of
// the transposed matrix; per-thread checksums go to a per-thread slot.
#include <cuda_runtime.h>
#include <cstdio>

#define ROWS 64
#define COLS 4096

__global__ void columnToRow(const float *m, float *mt, float *checks)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= COLS)
        return;
    float even = 0.0f, odd = 0.0f, tmp;
    int i, k;
    for (i = 0, k = j; i < ROWS; i += 1, k += COLS) {
        mt[j * ROWS + i] = m[k];
        even += m[k];
        tmp = even, even = odd, odd = tmp;
    }
    checks[j] = (even - odd, even + odd);
}

int main()
{
    float *m, *mt, *checks;
    cudaMalloc(&m, ROWS * COLS * sizeof(float));
    cudaMalloc(&mt, ROWS * COLS * sizeof(float));
    cudaMalloc(&checks, COLS * sizeof(float));
    dim3 block(128);
    dim3 grid(COLS / 128);
    columnToRow<<<grid, block>>>(m, mt, checks);
    cudaDeviceSynchronize();
    printf("transposed\n");
    return 0;
}
