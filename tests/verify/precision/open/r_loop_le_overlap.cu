// j <= m with rows of length m: the last element of a row is the first of the next.
__global__ void rows(int *a, int m, int rowsN) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rowsN) {
        for (int j = 0; j <= m; j++) {
            a[r * m + j] = r + j;
        }
    }
}
