// Row and column swapped in the store: a 2-D grid writes m[c * cols + r] with r, c unbounded.
__global__ void bias_add(float *m, const float *bias, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        m[r + c] = bias[c];
}
