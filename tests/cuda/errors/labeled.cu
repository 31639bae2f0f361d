__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    again: A[i] = 1;
}
