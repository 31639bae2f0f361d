__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    __shared__ int s[4][4];
    A[i] = s[i];
}
