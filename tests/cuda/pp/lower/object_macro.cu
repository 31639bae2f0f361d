#define SYNC __syncthreads()
__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    SYNC;
}
