__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    atomicCAS(&A[i], 0, 1);
}
