// Matrix multiplication C = A * B with square shared-memory tiles (SDK sample style). The launch
// lives in a templated helper that takes the matrix shapes as dim3 values (x = width, y = height).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define checkCudaErrors(val) check_cuda((val), #val, __FILE__, __LINE__)

static void check_cuda(cudaError_t result, const char *func, const char *file, int line)
{
    if (result != cudaSuccess) {
        fprintf(stderr, "CUDA error at %s:%d code=%d (%s) \"%s\"\n", file, line, (int)result,
                cudaGetErrorString(result), func);
        exit(EXIT_FAILURE);
    }
}

template <int BS>
__global__ void MatMul(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ float As[BS][BS];
    __shared__ float Bs[BS][BS];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * BS + ty;
    const int col = blockIdx.x * BS + tx;

    float acc = 0.0f;
    for (int k0 = 0; k0 < wA; k0 += BS) {
        As[ty][tx] = A[row * wA + k0 + tx];
        Bs[ty][tx] = B[(k0 + ty) * wB + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BS; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * wB + col] = acc;
}

template <int BS>
void launchMM(float *C, float *A, float *B, dim3 dimsA, dim3 dimsB)
{
    dim3 threads(BS, BS);
    dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
    MatMul<BS><<<grid, threads>>>(C, A, B, dimsA.x, dimsB.x);
}

static void fillMatrix(float *m, int count, float value)
{
    for (int i = 0; i < count; ++i)
        m[i] = value;
}

int main(int argc, char **argv)
{
    int blockSize = 32;
    int wA = 10 * 32, hA = 10 * 32, wB = 20 * 32;
    if (argc >= 4) {
        wA = atoi(argv[1]);
        hA = atoi(argv[2]);
        wB = atoi(argv[3]);
    }
    if (argc >= 5)
        blockSize = atoi(argv[4]);
    if (blockSize != 16 && blockSize != 32) {
        fprintf(stderr, "block size must be 16 or 32\n");
        exit(EXIT_FAILURE);
    }
    if (wA < 32 || hA < 32 || wB < 32 || wA > 8192 || hA > 8192 || wB > 8192 || wA % 32 != 0 ||
        hA % 32 != 0 || wB % 32 != 0) {
        fprintf(stderr, "matrix dimensions must be multiples of 32 in [32, 8192]\n");
        exit(EXIT_FAILURE);
    }
    dim3 dimsA(wA, hA, 1);
    dim3 dimsB(wB, wA, 1); // height of B = width of A
    printf("MatrixA(%d,%d), MatrixB(%d,%d), block %d\n", dimsA.x, dimsA.y, dimsB.x, dimsB.y, blockSize);

    unsigned sizeA = dimsA.x * dimsA.y;
    unsigned sizeB = dimsB.x * dimsB.y;
    unsigned sizeC = dimsB.x * dimsA.y;
    float *h_A = (float *)malloc(sizeA * sizeof(float));
    float *h_B = (float *)malloc(sizeB * sizeof(float));
    float *h_C = (float *)malloc(sizeC * sizeof(float));
    fillMatrix(h_A, sizeA, 1.0f);
    fillMatrix(h_B, sizeB, 0.01f);

    float *d_A, *d_B, *d_C;
    checkCudaErrors(cudaMalloc((void **)&d_A, sizeA * sizeof(float)));
    checkCudaErrors(cudaMalloc((void **)&d_B, sizeB * sizeof(float)));
    checkCudaErrors(cudaMalloc((void **)&d_C, sizeC * sizeof(float)));
    checkCudaErrors(cudaMemcpy(d_A, h_A, sizeA * sizeof(float), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_B, h_B, sizeB * sizeof(float), cudaMemcpyHostToDevice));

    if (blockSize == 16)
        launchMM<16>(d_C, d_A, d_B, dimsA, dimsB);
    else
        launchMM<32>(d_C, d_A, d_B, dimsA, dimsB);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaDeviceSynchronize());

    checkCudaErrors(cudaMemcpy(h_C, d_C, sizeC * sizeof(float), cudaMemcpyDeviceToHost));
    bool correct = true;
    const float expected = dimsA.x * 0.01f;
    for (unsigned i = 0; i < sizeC; ++i) {
        float diff = h_C[i] - expected;
        if (diff > 1e-3f * expected || diff < -1e-3f * expected) {
            printf("Error! C[%u] = %f, expected %f\n", i, h_C[i], expected);
            correct = false;
            break;
        }
    }
    printf("%s\n", correct ? "Result = PASS" : "Result = FAIL");

    free(h_A);
    free(h_B);
    free(h_C);
    checkCudaErrors(cudaFree(d_A));
    checkCudaErrors(cudaFree(d_B));
    checkCudaErrors(cudaFree(d_C));
    return correct ? EXIT_SUCCESS : EXIT_FAILURE;
}
