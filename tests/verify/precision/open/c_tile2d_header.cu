//--blockDim=[16,16]
__global__ void add2d(const float *a, const float *b, float *c, int width, int height) {
    int col = blockIdx.x * 16 + threadIdx.x;
    int row = blockIdx.y * 16 + threadIdx.y;
    if (col < width && row < height) {
        c[row * width + col] = a[row * width + col] + b[row * width + col];
    }
}
