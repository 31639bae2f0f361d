__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    int *p = A;
    p[i] = 1;
}
