__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    int v = __ldg(&A[i]);
}
