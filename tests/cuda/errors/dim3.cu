__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    dim3 d(1, 2);
}
