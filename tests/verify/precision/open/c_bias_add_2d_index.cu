// bias add over a [rows x cols] matrix with a 2-D grid of 2-D blocks.
__global__ void bias_add(float *m, const float *bias, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        m[r * cols + c] += bias[c];
}
