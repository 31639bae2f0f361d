//--blockDim=[16,16]
#define W 1024
__global__ void copy2d(const float *a, float *b) {
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    if (x < W) b[y * W + x] = a[y * W + x];
}
