__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    A[i] = 4294967296;
}
