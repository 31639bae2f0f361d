// The row is threadIdx.x instead of blockIdx.x: every block scales the same rows.
__global__ void row_scale(float *m, const float *f, int cols) {
    int row = threadIdx.x;
    for (int c = 0; c < cols; c++)
        m[row * cols + c] *= f[row];
}
