//--blockDim=128 --gridDim=16
// y = A x, one row per thread, x staged through shared memory a tile at a time.
#define TILE 128

__global__ void matVec(const float *A, const float *x, float *y, int cols)
{
    __requires(cols % TILE == 0);
    __requires(cols <= 8192);
    __shared__ float xs[TILE];
    int row = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int base = 0; __invariant(base % TILE == 0), base < cols; base += TILE) {
        xs[threadIdx.x] = x[base + threadIdx.x];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += A[row * cols + base + k] * xs[k];
    }
    y[row] = acc;
}
