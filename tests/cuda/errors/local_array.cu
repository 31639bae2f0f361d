__global__ void k(int *A, int n) {
    int i = threadIdx.x;
    int a[4];
    a[0] = 1;
}
