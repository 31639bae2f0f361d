__global__ void k(int *A, int *B) {
    A = B;
}
