//--blockDim=32x --bogus
__global__ void k(int *A, int n) {
    int i = threadIdx.x;
}
