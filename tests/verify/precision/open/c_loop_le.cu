// Each thread owns a row of length m+1 (j <= m).
__global__ void rows(int *a, int m, int rowsN) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rowsN) {
        for (int j = 0; j <= m; j++) {
            a[r * (m + 1) + j] = r + j;
        }
    }
}
