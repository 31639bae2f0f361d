#define IDX(a) ((a) * 2)
__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    A[IDX(i)] = 1;
}
