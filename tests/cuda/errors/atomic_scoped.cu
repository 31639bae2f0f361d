__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    atomicAdd_block(&A[i], 1);
}
