//--blockDim=[16,16]
#define TS 16
__global__ void matmul(const float *A, const float *B, float *C, int N) {
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int row = blockIdx.y * TS + threadIdx.y;
    int col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < N / TS; t++) {
        As[threadIdx.y][threadIdx.x] = A[row * N + t * TS + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TS + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
