__global__ void k(int *A, int n) {
    int i = threadIdx.x;
#define M 4
    A[i] = M;
}
