__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    while (i < n) { if (A[i]) break; i++; }
}
