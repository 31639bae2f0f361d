//--blockDim=[16,16]
__global__ void add2d(const float *a, float *c, int width) {
    int col = blockIdx.x * 16 + threadIdx.x;
    int row = blockIdx.y * 16 + threadIdx.y;
    c[row * width + col] = a[row * width + col];
    c[row * width + col + 1] += 1.0f;
}
