// One block per row, threads stride over the columns.
__global__ void row_scale(float *m, const float *f, int cols) {
    int row = blockIdx.x;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        m[row * cols + c] *= f[row];
}
