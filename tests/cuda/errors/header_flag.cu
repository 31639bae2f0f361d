//--blockDim=32 --bogus
__global__ void k(int *A, int n) {
    int i = threadIdx.x;
}
