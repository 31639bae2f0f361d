__global__ void k(int *A, int *B) {
    int *p = A;
    if (threadIdx.x > 3) p = B;
    p[threadIdx.x] = 1;
}
