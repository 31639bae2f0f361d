__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    if (i > n) return;
    A[i] = 1;
}
